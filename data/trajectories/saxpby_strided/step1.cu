#include <cuda_runtime.h>

// One thread per logical element. __fmul_rn/__fadd_rn keep the serial code's
// separate roundings (no FMA contraction).
__global__ void axpby_strided_kernel(int n, float alpha, const float* x, int incx, float beta, float* y,
                                     int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    size_t ix = static_cast<size_t>(i) * incx;
    size_t iy = static_cast<size_t>(i) * incy;
    y[iy] = __fadd_rn(__fmul_rn(alpha, x[ix]), __fmul_rn(beta, y[iy]));
  }
}

void stridedAxpby(int n, float alpha, const float* x, int incx, float beta, float* y, int incy) {
  if (n <= 0) return;
  size_t xbytes = static_cast<size_t>(n) * incx * sizeof(float);
  size_t ybytes = static_cast<size_t>(n) * incy * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, xbytes);
  cudaMalloc(&dy, ybytes);
  cudaMemcpy(dx, x, xbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, ybytes, cudaMemcpyHostToDevice);  // the whole y: untouched elements must survive
  int block = 256;
  int grid = (n + block - 1) / block;
  axpby_strided_kernel<<<grid, block>>>(n, alpha, dx, incx, beta, dy, incy);
  cudaMemcpy(y, dy, ybytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

#include <cuda_runtime.h>
#include <complex>

// Pass 1: y <- a x + y, one thread per complex element.
__global__ void caxpy_kernel(int n, float ar, float ai, const float2* x, float2* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 xv = x[i], yv = y[i];
    yv.x = ar * xv.x - ai * xv.y + yv.x;
    yv.y = ar * xv.y + ai * xv.x + yv.y;
    y[i] = yv;
  }
}

// Pass 2: |y| per element.
__global__ void cabs_kernel(int n, const float2* y, float* mag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 yv = y[i];
    mag[i] = hypotf(yv.x, yv.y);
  }
}

void complexAxpyMagnitude(int n, float ar, float ai, const std::complex<float>* x,
                          std::complex<float>* y, float* mag) {
  if (n <= 0) return;
  // std::complex<float> is laid out as (re, im), identical to float2.
  size_t cbytes = static_cast<size_t>(n) * sizeof(std::complex<float>);
  size_t fbytes = static_cast<size_t>(n) * sizeof(float);
  float2 *dx = nullptr, *dy = nullptr;
  float* dmag = nullptr;
  cudaMalloc(&dx, cbytes);
  cudaMalloc(&dy, cbytes);
  cudaMalloc(&dmag, fbytes);
  cudaMemcpy(dx, x, cbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, cbytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  caxpy_kernel<<<grid, block>>>(n, ar, ai, dx, dy);
  cabs_kernel<<<grid, block>>>(n, dy, dmag);
  cudaMemcpy(y, dy, cbytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(mag, dmag, fbytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dmag);
}

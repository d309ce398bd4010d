#include <cuda_runtime.h>

// Step 1 (thread_mapping): rows are independent; thread i forms row i of
// alpha * T * x + beta * y, with the same evaluation order as the reference.
// Step 2 (read_only_cache): the diagonals and x never change during the
// kernel, so they are loaded with __ldg through the read-only data cache; the
// three neighbouring x values a warp needs overlap and hit in that cache.
__global__ void tridiag_matvec_kernel(int n, double alpha, const double* __restrict__ dl,
                                      const double* __restrict__ d, const double* __restrict__ du,
                                      const double* __restrict__ x, double beta,
                                      double* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double t = __ldg(&d[i]) * __ldg(&x[i]);
  if (i > 0) t = __ldg(&dl[i - 1]) * __ldg(&x[i - 1]) + t;
  if (i < n - 1) t = t + __ldg(&du[i]) * __ldg(&x[i + 1]);
  double old = beta == 0.0 ? 0.0 : beta * y[i];
  y[i] = alpha * t + old;
}

void tridiagMatVec(int n, double alpha, const double* dl, const double* d, const double* du,
                   const double* x, double beta, double* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(double);
  size_t off_bytes = (n > 1 ? (size_t)(n - 1) : 1) * sizeof(double);
  double *d_dl = nullptr, *d_d = nullptr, *d_du = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_dl, off_bytes);
  cudaMalloc(&d_d, bytes);
  cudaMalloc(&d_du, off_bytes);
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  if (n > 1) {
    cudaMemcpy(d_dl, dl, (size_t)(n - 1) * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_du, du, (size_t)(n - 1) * sizeof(double), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_d, d, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  if (beta != 0.0) cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  int grid = (int)(((size_t)n + block - 1) / block);
  tridiag_matvec_kernel<<<grid, block>>>(n, alpha, d_dl, d_d, d_du, d_x, beta, d_y);
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_dl);
  cudaFree(d_d);
  cudaFree(d_du);
  cudaFree(d_x);
  cudaFree(d_y);
}

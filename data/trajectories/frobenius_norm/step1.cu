#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

// Grid-stride loop: each thread accumulates a private double sum over the
// elements i, i + stride, ... and adds it to the global total once.
__global__ void frob_partial(const float* A, size_t total, double* out) {
  double s = 0.0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total; k += stride) {
    double v = A[k];
    s += v * v;
  }
  atomicAdd(out, s);
}

double frobenius_norm_f32(const float* A, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return 0.0;
  size_t total = (size_t)rows * (size_t)cols;
  float* d_A = nullptr;
  double* d_sum = nullptr;
  cudaMalloc(&d_A, total * sizeof(float));
  cudaMalloc(&d_sum, sizeof(double));
  cudaMemcpy(d_A, A, total * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_sum, 0, sizeof(double));
  int block = 256;
  size_t want = (total + block - 1) / block;
  int grid = (int)(want < 1024 ? want : 1024);
  frob_partial<<<grid, block>>>(d_A, total, d_sum);
  double sum = 0.0;
  cudaMemcpy(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_sum);
  return std::sqrt(sum);
}

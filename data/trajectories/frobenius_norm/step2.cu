#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define BLOCK 256

// Grid-stride accumulation, then a shared-memory tree inside the block so only
// one atomicAdd per block reaches the global total.
__global__ void frob_block(const float* A, size_t total, double* out) {
  __shared__ double buf[BLOCK];
  double s = 0.0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total; k += stride) {
    double v = A[k];
    s += v * v;
  }
  buf[threadIdx.x] = s;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) buf[threadIdx.x] += buf[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, buf[0]);
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
  size_t want = (total + BLOCK - 1) / BLOCK;
  int grid = (int)(want < 1024 ? want : 1024);
  frob_block<<<grid, BLOCK>>>(d_A, total, d_sum);
  double sum = 0.0;
  cudaMemcpy(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_sum);
  return std::sqrt(sum);
}

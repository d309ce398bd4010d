#include <cuda_runtime.h>
#include <cstddef>

// 2-D grid, one thread per matrix element; x threads run along a row so warp
// accesses are contiguous.
__global__ void rank1_2d(int m, int n, float alpha, const float* x, const float* y, float* A) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n) return;
  float ax = alpha * x[i];
  A[(size_t)i * n + j] += ax * y[j];
}

void rank1_update_f32(int m, int n, float alpha, const float* x, const float* y, float* A) {
  if (m <= 0 || n <= 0) return;
  size_t a_bytes = (size_t)m * (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr, *d_A = nullptr;
  cudaMalloc(&d_x, (size_t)m * sizeof(float));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  cudaMalloc(&d_A, a_bytes);
  cudaMemcpy(d_x, x, (size_t)m * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8));
  rank1_2d<<<grid, block>>>(m, n, alpha, d_x, d_y, d_A);
  cudaMemcpy(A, d_A, a_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_A);
}

#include <cuda_runtime.h>
#include <cstddef>

// One thread per output column: it walks down column j. Threads of a warp read
// consecutive addresses of the same row, so the loads are coalesced.
__global__ void gemv_t_column(int m, int n, const float* A, const float* x, float* y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < m; ++i) acc += A[(size_t)i * n + j] * x[i];
  y[j] = acc;
}

void gemv_transposed(int m, int n, const float* A, const float* x, float* y) {
  if (n <= 0) return;
  if (m <= 0) {
    for (int j = 0; j < n; ++j) y[j] = 0.0f;
    return;
  }
  float *d_A = nullptr, *d_x = nullptr, *d_y = nullptr;
  size_t a_bytes = (size_t)m * (size_t)n * sizeof(float);
  cudaMalloc(&d_A, a_bytes);
  cudaMalloc(&d_x, (size_t)m * sizeof(float));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, (size_t)m * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  gemv_t_column<<<(n + block - 1) / block, block>>>(m, n, d_A, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);
}

#include <cuda_runtime.h>
#include <cstddef>

#define TX 32
#define TY 8

// A block owns 32 columns; its 8 thread rows split the column sums (row i goes
// to threadIdx.y == i % 8), then a shared-memory tree combines the 8 partials.
__global__ void gemv_t_block(int m, int n, const float* A, const float* x, float* y) {
  __shared__ float part[TY][TX];
  int j = blockIdx.x * TX + threadIdx.x;
  float acc = 0.0f;
  if (j < n) {
    for (int i = threadIdx.y; i < m; i += TY) acc += A[(size_t)i * n + j] * x[i];
  }
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  for (int s = TY / 2; s > 0; s >>= 1) {
    if (threadIdx.y < s) part[threadIdx.y][threadIdx.x] += part[threadIdx.y + s][threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.y == 0 && j < n) y[j] = part[0][threadIdx.x];
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
  dim3 block(TX, TY);
  dim3 grid((unsigned)((n + TX - 1) / TX));
  gemv_t_block<<<grid, block>>>(m, n, d_A, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);
}

#include <cuda_runtime.h>
#include <cstddef>

// One thread per output (i, j): for j >= i it sums U[i][p] * V[p][j] over the
// band p = i..j (the only p where both factors are in their upper triangles).
__global__ void triu_mm_naive(int n, const float* U, const float* V, float* W) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float s = 0.0f;
  for (int p = i; p <= j; ++p) s += U[(size_t)i * n + p] * V[(size_t)p * n + j];
  W[(size_t)i * n + j] = s;  // the loop is empty below the diagonal
}

void triu_matmul(int n, const float* U, const float* V, float* W) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_U = nullptr, *d_V = nullptr, *d_W = nullptr;
  cudaMalloc(&d_U, bytes);
  cudaMalloc(&d_V, bytes);
  cudaMalloc(&d_W, bytes);
  cudaMemcpy(d_U, U, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_V, V, bytes, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16));
  triu_mm_naive<<<grid, block>>>(n, d_U, d_V, d_W);
  cudaMemcpy(W, d_W, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_U);
  cudaFree(d_V);
  cudaFree(d_W);
}

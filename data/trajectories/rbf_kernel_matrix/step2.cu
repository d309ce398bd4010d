#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define CPT 4  // columns (B points) per thread

// Each thread computes 4 entries of one row of K (columns tx, tx+16, tx+32,
// tx+48 of a 64-column block tile): A[i][p] is loaded once per p into a
// register and reused for four distances held in four accumulators.
__global__ void rbf_regtile(int m, int n, int d, float gamma, const float* A, const float* B,
                            float* K) {
  int i = blockIdx.y * 16 + threadIdx.y;
  if (i >= m) return;
  int col0 = blockIdx.x * 64 + threadIdx.x;
  const float* brow[CPT];
  for (int b = 0; b < CPT; ++b) {
    int j = min(col0 + 16 * b, n - 1);  // clamped: columns past n are computed but not stored
    brow[b] = B + (size_t)j * d;
  }
  const float* arow = A + (size_t)i * d;
  float s[CPT];
  for (int b = 0; b < CPT; ++b) s[b] = 0.0f;
  for (int p = 0; p < d; ++p) {
    float a = arow[p];
    for (int b = 0; b < CPT; ++b) {
      float diff = a - brow[b][p];
      s[b] += diff * diff;
    }
  }
  for (int b = 0; b < CPT; ++b) {
    int j = col0 + 16 * b;
    if (j < n) K[(size_t)i * n + j] = expf(-gamma * s[b]);
  }
}

void gaussian_affinity(int m, int n, int d, float gamma, const float* A, const float* B,
                       float* K) {
  if (m <= 0 || n <= 0) return;
  size_t ba = (size_t)m * d * sizeof(float), bb = (size_t)n * d * sizeof(float);
  size_t bk = (size_t)m * n * sizeof(float);
  float *d_A, *d_B, *d_K;
  cudaMalloc(&d_A, ba > 0 ? ba : sizeof(float));
  cudaMalloc(&d_B, bb > 0 ? bb : sizeof(float));
  cudaMalloc(&d_K, bk);
  cudaMemcpy(d_A, A, ba, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, B, bb, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((n + 63) / 64, (m + 15) / 16);
  rbf_regtile<<<grid, block>>>(m, n, d, gamma, d_A, d_B, d_K);
  cudaMemcpy(K, d_K, bk, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_K);
}

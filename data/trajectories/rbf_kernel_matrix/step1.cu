#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

// One thread per matrix entry: squared distance between A row i and B row j,
// then the exponential.
__global__ void rbf_naive(int m, int n, int d, float gamma, const float* A, const float* B,
                          float* K) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n) return;
  float s = 0.0f;
  for (int p = 0; p < d; ++p) {
    float diff = A[(size_t)i * d + p] - B[(size_t)j * d + p];
    s += diff * diff;
  }
  K[(size_t)i * n + j] = expf(-gamma * s);
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
  dim3 grid((n + 15) / 16, (m + 15) / 16);
  rbf_naive<<<grid, block>>>(m, n, d, gamma, d_A, d_B, d_K);
  cudaMemcpy(K, d_K, bk, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_K);
}

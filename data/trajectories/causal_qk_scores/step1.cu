#include <cuda_runtime.h>
#include <cstddef>

// One thread per score: masked entries (j > i) are written as zero, the others
// get the scaled dot product of query row i and key row j.
__global__ void qk_naive(int n, int d, float scale, const float* Q, const float* Kt, float* S) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  if (j > i) {
    S[(size_t)i * n + j] = 0.0f;
    return;
  }
  float acc = 0.0f;
  for (int p = 0; p < d; ++p) acc += Q[(size_t)i * d + p] * Kt[(size_t)j * d + p];
  S[(size_t)i * n + j] = scale * acc;
}

void masked_qk_scores(int n, int d, float scale, const float* Q, const float* Kt, float* S) {
  if (n <= 0) return;
  size_t bq = (size_t)n * d * sizeof(float), bs = (size_t)n * n * sizeof(float);
  float *d_Q, *d_K, *d_S;
  cudaMalloc(&d_Q, bq > 0 ? bq : sizeof(float));
  cudaMalloc(&d_K, bq > 0 ? bq : sizeof(float));
  cudaMalloc(&d_S, bs);
  cudaMemcpy(d_Q, Q, bq, cudaMemcpyHostToDevice);
  cudaMemcpy(d_K, Kt, bq, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (n + 15) / 16);
  qk_naive<<<grid, block>>>(n, d, scale, d_Q, d_K, d_S);
  cudaMemcpy(S, d_S, bs, cudaMemcpyDeviceToHost);
  cudaFree(d_Q);
  cudaFree(d_K);
  cudaFree(d_S);
}

#include <cuda_runtime.h>

#define D 8  // features

#define QPT 2  // queries per thread

// Register tiling: each thread scores QPT = 2 queries (a block-width apart)
// and keeps both feature vectors in registers; each support vector is loaded
// once into registers and used for both queries.
__global__ void svm_kernel(int m, int n, const float* __restrict__ q, const float* __restrict__ sv,
                           const float* __restrict__ alpha, float gamma, float* __restrict__ score) {
  int base = blockIdx.x * blockDim.x * QPT + threadIdx.x;  // queries base + c*blockDim.x
  float x[QPT][D], acc[QPT];
  for (int c = 0; c < QPT; ++c) {
    int i = base + c * blockDim.x;
    for (int k = 0; k < D; ++k) x[c][k] = i < m ? q[(size_t)i * D + k] : 0.0f;
    acc[c] = 0.0f;
  }
  for (int j = 0; j < n; ++j) {
    float s[D];
    for (int k = 0; k < D; ++k) s[k] = sv[(size_t)j * D + k];
    float a = alpha[j];
    for (int c = 0; c < QPT; ++c) {
      float d2 = 0.0f;
      for (int k = 0; k < D; ++k) {
        float t = x[c][k] - s[k];
        d2 += t * t;
      }
      acc[c] += a * expf(-gamma * d2);
    }
  }
  for (int c = 0; c < QPT; ++c) {
    int i = base + c * blockDim.x;
    if (i < m) score[i] = acc[c];
  }
}

void svm_rbf_decision(int m, int n, const float* queries, const float* sv, const float* alpha, float gamma,
                      float* score) {
  if (m <= 0) return;
  float *dq = nullptr, *dsv = nullptr, *da = nullptr, *ds = nullptr;
  size_t nn = (size_t)(n > 0 ? n : 1);
  cudaMalloc(&dq, (size_t)m * D * sizeof(float));
  cudaMalloc(&dsv, nn * D * sizeof(float));
  cudaMalloc(&da, nn * sizeof(float));
  cudaMalloc(&ds, (size_t)m * sizeof(float));
  cudaMemcpy(dq, queries, (size_t)m * D * sizeof(float), cudaMemcpyHostToDevice);
  if (n > 0) {
    cudaMemcpy(dsv, sv, (size_t)n * D * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(da, alpha, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  }
  int block = 256;
  int per_block = block * QPT;
  svm_kernel<<<(m + per_block - 1) / per_block, block>>>(m, n, dq, dsv, da, gamma, ds);
  cudaMemcpy(score, ds, (size_t)m * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dq);
  cudaFree(dsv);
  cudaFree(da);
  cudaFree(ds);
}

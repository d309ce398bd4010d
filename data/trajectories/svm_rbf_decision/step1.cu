#include <cuda_runtime.h>

#define D 8  // features

// One thread per query: its 8 features in registers, loop over all support
// vectors.
__global__ void svm_kernel(int m, int n, const float* q, const float* sv, const float* alpha, float gamma,
                           float* score) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float x[D];
  for (int k = 0; k < D; ++k) x[k] = q[(size_t)i * D + k];
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    float d2 = 0.0f;
    for (int k = 0; k < D; ++k) {
      float t = x[k] - sv[(size_t)j * D + k];
      d2 += t * t;
    }
    acc += alpha[j] * expf(-gamma * d2);
  }
  score[i] = acc;
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
  svm_kernel<<<(m + block - 1) / block, block>>>(m, n, dq, dsv, da, gamma, ds);
  cudaMemcpy(score, ds, (size_t)m * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dq);
  cudaFree(dsv);
  cudaFree(da);
  cudaFree(ds);
}

#include <cuda_runtime.h>

#define D 8  // features

#define QPT 2
#define BLOCK 64

// Support vectors are staged through shared memory in tiles of BLOCK vectors:
// the block copies a tile's BLOCK*8 features and BLOCK weights with coalesced
// loads (8 floats per thread), synchronises, and every thread then reads the
// tile from shared memory (broadcast reads) for its two queries. All threads
// take part in loading and in both barriers, whatever their queries.
__global__ void svm_kernel(int m, int n, const float* __restrict__ q, const float* __restrict__ sv,
                           const float* __restrict__ alpha, float gamma, float* __restrict__ score) {
  __shared__ float ts[BLOCK * D];
  __shared__ float ta[BLOCK];
  int base = blockIdx.x * BLOCK * QPT + threadIdx.x;
  float x[QPT][D], acc[QPT];
#pragma unroll
  for (int c = 0; c < QPT; ++c) {
    int i = base + c * BLOCK;
#pragma unroll
    for (int k = 0; k < D; ++k) x[c][k] = i < m ? q[(size_t)i * D + k] : 0.0f;
    acc[c] = 0.0f;
  }
  for (int t0 = 0; t0 < n; t0 += BLOCK) {
    int cnt = n - t0 < BLOCK ? n - t0 : BLOCK;
    for (int e = threadIdx.x; e < cnt * D; e += BLOCK) ts[e] = sv[(size_t)t0 * D + e];
    if (threadIdx.x < cnt) ta[threadIdx.x] = alpha[t0 + threadIdx.x];
    __syncthreads();
#pragma unroll 2
    for (int j = 0; j < cnt; ++j) {
      float a = ta[j];
#pragma unroll
      for (int c = 0; c < QPT; ++c) {
        float d2 = 0.0f;
#pragma unroll
        for (int k = 0; k < D; ++k) {
          float t = x[c][k] - ts[j * D + k];
          d2 += t * t;
        }
        acc[c] += a * expf(-gamma * d2);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int c = 0; c < QPT; ++c) {
    int i = base + c * BLOCK;
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
  int per_block = BLOCK * QPT;
  svm_kernel<<<(m + per_block - 1) / per_block, BLOCK>>>(m, n, dq, dsv, da, gamma, ds);
  cudaMemcpy(score, ds, (size_t)m * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dq);
  cudaFree(dsv);
  cudaFree(da);
  cudaFree(ds);
}

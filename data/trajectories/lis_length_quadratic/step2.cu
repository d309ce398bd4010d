#include <cuda_runtime.h>
#include <vector>

__global__ void lis_fill_ones(int n, int* L) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) L[i] = 1;
}

__device__ __forceinline__ int warp_max(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

// Element i: each warp reduces its candidates (L[j] for smaller earlier a[j],
// 0 otherwise) with shuffles, and only lane 0 issues an atomicMax: 32x fewer
// atomics on the single contended address L[i].
__global__ void lis_element(int i, const int* __restrict__ a, int* L) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int ai = a[i];
  int v = (j < i && a[j] < ai) ? L[j] : 0;
  v = warp_max(v);
  if ((threadIdx.x & 31) == 0 && v > 0) atomicMax(&L[i], v + 1);
}

__global__ void lis_max(int n, const int* L, int* best) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(best, L[i]);
}

int longest_increasing_subsequence(const std::vector<int>& a) {
  int n = (int)a.size();
  if (n == 0) return 0;
  int *d_a = nullptr, *d_L = nullptr, *d_best = nullptr;
  cudaMalloc(&d_a, (size_t)n * sizeof(int));
  cudaMalloc(&d_L, (size_t)n * sizeof(int));
  cudaMalloc(&d_best, sizeof(int));
  cudaMemcpy(d_a, a.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_best, 0, sizeof(int));
  lis_fill_ones<<<(n + 255) / 256, 256>>>(n, d_L);
  for (int i = 1; i < n; ++i) lis_element<<<(i + 255) / 256, 256>>>(i, d_a, d_L);
  lis_max<<<(n + 255) / 256, 256>>>(n, d_L, d_best);
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_L);
  cudaFree(d_best);
  return best;
}

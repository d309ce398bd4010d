#include <cuda_runtime.h>
#include <vector>

#define NT 1024

__device__ __forceinline__ int warp_max(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

// Block-wide maximum, returned to every thread (shuffles in each warp, then warp 0
// combines the 32 warp results).
__device__ __forceinline__ int block_max(int v, int* warp_best, int* s_result) {
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_max(v);
  if (lane == 0) warp_best[wid] = v;
  __syncthreads();
  if (wid == 0) {
    int w = lane < (int)(blockDim.x >> 5) ? warp_best[lane] : 0;
    w = warp_max(w);
    if (lane == 0) *s_result = w;
  }
  __syncthreads();
  return *s_result;
}

// One persistent 1024-thread block runs the whole outer loop: for each i the
// threads stride over j < i, reduce the candidates to one maximum on chip, and
// thread 0 writes L[i]. The n - 1 launches and the per-element atomics are gone.
__global__ void __launch_bounds__(NT) lis_persistent(int n, const int* __restrict__ a, int* L, int* best) {
  __shared__ int warp_best[32];
  __shared__ int s_result;
  int overall = 0;
  for (int i = 0; i < n; ++i) {
    int ai = a[i];
    int m = 0;
    for (int j = threadIdx.x; j < i; j += NT)
      if (a[j] < ai) m = max(m, L[j]);
    m = block_max(m, warp_best, &s_result);
    if (threadIdx.x == 0) L[i] = m + 1;
    overall = max(overall, m + 1);
    __syncthreads();  // L[i] (written by thread 0) is read by all threads from i + 1 on
  }
  if (threadIdx.x == 0) *best = overall;
}

int longest_increasing_subsequence(const std::vector<int>& a) {
  int n = (int)a.size();
  if (n == 0) return 0;
  int *d_a = nullptr, *d_L = nullptr, *d_best = nullptr;
  cudaMalloc(&d_a, (size_t)n * sizeof(int));
  cudaMalloc(&d_L, (size_t)n * sizeof(int));
  cudaMalloc(&d_best, sizeof(int));
  cudaMemcpy(d_a, a.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  lis_persistent<<<1, NT>>>(n, d_a, d_L, d_best);
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_L);
  cudaFree(d_best);
  return best;
}

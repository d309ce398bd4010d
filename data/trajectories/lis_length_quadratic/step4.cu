#include <cuda_runtime.h>
#include <vector>

#define B 128       // chunk length = threads of the local block
#define CT 256      // threads per block of the cross kernel

__device__ __forceinline__ int warp_max(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

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

// Blocked DP, phase 1 (parallel): for every element i of the chunk [s, s + B),
// one block computes the best L[j] over all earlier chunks (j < s, a[j] < a[i]).
// This is almost all of the O(n^2) work and runs on many SMs at once.
__global__ void lis_cross(int s, int cnt, const int* __restrict__ a, const int* __restrict__ L, int* __restrict__ cross) {
  __shared__ int warp_best[32];
  __shared__ int s_result;
  int i = s + blockIdx.x;
  int ai = a[i];
  int m = 0;
  for (int j = threadIdx.x; j < s; j += CT)
    if (a[j] < ai) m = max(m, L[j]);
  m = block_max(m, warp_best, &s_result);
  if (threadIdx.x == 0) cross[blockIdx.x] = m;
}

// Phase 2 (short and sequential): one block resolves the chunk's internal
// dependencies in shared memory, element by element, combining each element's
// in-chunk candidates with its cross-chunk maximum.
__global__ void lis_local(int s, int cnt, const int* __restrict__ a, const int* __restrict__ cross, int* __restrict__ L,
                          int* __restrict__ best) {
  __shared__ int sa[B];
  __shared__ int sL[B];
  __shared__ int warp_best[32];
  __shared__ int s_result;
  int t = threadIdx.x;
  sa[t] = t < cnt ? a[s + t] : 0;
  sL[t] = 0;
  __syncthreads();
  for (int k = 0; k < cnt; ++k) {
    int v = (t < k && sa[t] < sa[k]) ? sL[t] : 0;
    int m = block_max(v, warp_best, &s_result);
    if (t == 0) sL[k] = 1 + max(m, cross[k]);
    __syncthreads();
  }
  if (t < cnt) {
    L[s + t] = sL[t];
    atomicMax(best, sL[t]);
  }
}

int longest_increasing_subsequence(const std::vector<int>& a) {
  int n = (int)a.size();
  if (n == 0) return 0;
  int *d_a = nullptr, *d_L = nullptr, *d_cross = nullptr, *d_best = nullptr;
  cudaMalloc(&d_a, (size_t)n * sizeof(int));
  cudaMalloc(&d_L, (size_t)n * sizeof(int));
  cudaMalloc(&d_cross, B * sizeof(int));
  cudaMalloc(&d_best, sizeof(int));
  cudaMemcpy(d_a, a.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_best, 0, sizeof(int));
  for (int s = 0; s < n; s += B) {
    int cnt = n - s < B ? n - s : B;
    lis_cross<<<cnt, CT>>>(s, cnt, d_a, d_L, d_cross);
    lis_local<<<1, B>>>(s, cnt, d_a, d_cross, d_L, d_best);
  }
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_L);
  cudaFree(d_cross);
  cudaFree(d_best);
  return best;
}

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

__device__ __forceinline__ unsigned long long warp_sum_u64(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Pair-per-thread counting as before, but counts are combined inside the
// block (warp shuffles, then the 8 warp totals) and each block issues a single
// atomicAdd. Threads without work contribute 0 instead of returning, so every
// thread reaches the shuffles and the barrier.
__global__ void tri_pairs_agg(int n, const uint8_t* adj, unsigned long long* total) {
  __shared__ unsigned long long warp_tot[8];
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long c = 0;
  if (i < n && j < n && j > i) {
    const uint8_t* ri = adj + (size_t)i * n;
    if (ri[j]) {
      const uint8_t* rj = adj + (size_t)j * n;
      for (int k = j + 1; k < n; ++k) c += (unsigned)(ri[k] & rj[k]);
    }
  }
  c = warp_sum_u64(c);  // blockDim.x == 32: threadIdx.y is the warp
  if (threadIdx.x == 0) warp_tot[threadIdx.y] = c;
  __syncthreads();
  if (threadIdx.y == 0) {
    c = (threadIdx.x < 8) ? warp_tot[threadIdx.x] : 0ull;
    c = warp_sum_u64(c);
    if (threadIdx.x == 0 && c != 0ull) atomicAdd(total, c);
  }
}

int64_t count_triangles_dense(int n, const uint8_t* adj) {
  if (n < 3) return 0;
  size_t bytes = (size_t)n * (size_t)n;
  uint8_t* d_adj = nullptr;
  unsigned long long* d_total = nullptr;
  cudaMalloc(&d_adj, bytes);
  cudaMalloc(&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_adj, adj, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));
  dim3 block(32, 8);
  dim3 grid((unsigned)((n + 31) / 32), (unsigned)((n + 7) / 8));
  tri_pairs_agg<<<grid, block>>>(n, d_adj, d_total);
  unsigned long long total = 0;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(d_adj);
  cudaFree(d_total);
  return (int64_t)total;
}

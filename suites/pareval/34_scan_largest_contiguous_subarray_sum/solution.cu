#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Maximum subarray as an ordered reduction. A segment is summarised by
// (total, best prefix, best suffix, best run); two adjacent segments combine
// associatively (not commutatively). Pass 1: each block stages a tile in
// shared memory with coalesced loads, each thread folds a contiguous run of
// kItems values, warps combine neighbours with shuffles at increasing offsets
// (keeping left-to-right order), and warp 0 combines the warp summaries; one
// summary per tile goes to global memory. Pass 2: one block combines the tile
// summaries in order the same way and writes the best run.

namespace {
constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;
constexpr int kNeg = -(1 << 29);  // "no run yet"; sums of two stay in range
}  // namespace

struct Seg {
  int sum, pre, suf, best;
};

__device__ __forceinline__ Seg seg_identity() { return Seg{0, kNeg, kNeg, kNeg}; }
__device__ __forceinline__ Seg seg_of(int v) { return Seg{v, v, v, v}; }

__device__ __forceinline__ Seg combine(const Seg& a, const Seg& b) {
  Seg r;
  r.sum = a.sum + b.sum;
  r.pre = max(a.pre, a.sum + b.pre);
  r.suf = max(b.suf, b.sum + a.suf);
  r.best = max(max(a.best, b.best), a.suf + b.pre);
  return r;
}

__device__ __forceinline__ Seg shfl_down(const Seg& s, int off) {
  Seg r;
  r.sum = __shfl_down_sync(0xffffffffu, s.sum, off);
  r.pre = __shfl_down_sync(0xffffffffu, s.pre, off);
  r.suf = __shfl_down_sync(0xffffffffu, s.suf, off);
  r.best = __shfl_down_sync(0xffffffffu, s.best, off);
  return r;
}

// Ordered block reduction (thread i's segment lies left of thread i+1's);
// the result is valid in thread 0.
__device__ Seg block_combine(Seg v) {
  __shared__ Seg s_warp[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    Seg o = shfl_down(v, off);
    if (lane + off < 32) v = combine(v, o);
  }
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : seg_identity();
    for (int off = 1; off < 32; off <<= 1) {
      Seg o = shfl_down(v, off);
      if (lane + off < 32) v = combine(v, o);
    }
  }
  return v;
}

__global__ void __launch_bounds__(kThreads)
tile_summaries(const int* __restrict__ x, size_t n, Seg* __restrict__ tiles) {
  __shared__ int s_x[kTile + kTile / 32];
  const size_t base = (size_t)blockIdx.x * kTile;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    size_t i = base + j;
    s_x[j + (j >> 5)] = i < n ? x[i] : 0;
  }
  __syncthreads();
  Seg v = seg_identity();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = threadIdx.x * kItems + k;
    if (base + j < n) v = combine(v, seg_of(s_x[j + (j >> 5)]));
  }
  v = block_combine(v);
  if (threadIdx.x == 0) tiles[blockIdx.x] = v;
}

__global__ void __launch_bounds__(kThreads)
combine_tiles(const Seg* __restrict__ tiles, size_t count, int* __restrict__ result) {
  // Each thread folds a contiguous chunk of tile summaries, then the block
  // combines the chunks in order.
  const size_t chunk = (count + blockDim.x - 1) / blockDim.x;
  const size_t first = threadIdx.x * chunk;
  Seg v = seg_identity();
  for (size_t i = first; i < first + chunk && i < count; ++i) v = combine(v, tiles[i]);
  v = block_combine(v);
  if (threadIdx.x == 0) *result = v.best;
}

int maximumSubarray(std::vector<int> const& x) {
  const size_t n = x.size();
  if (n == 0) return 0;
  const size_t tiles = (n + kTile - 1) / kTile;
  int *d_x = nullptr, *d_result = nullptr;
  Seg* d_tiles = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMalloc(&d_tiles, tiles * sizeof(Seg));
  cudaMalloc(&d_result, sizeof(int));
  cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  tile_summaries<<<(unsigned)tiles, kThreads>>>(d_x, n, d_tiles);
  combine_tiles<<<1, kThreads>>>(d_tiles, tiles, d_result);
  int result = 0;
  cudaMemcpy(&result, d_result, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_tiles);
  cudaFree(d_result);
  return result;
}

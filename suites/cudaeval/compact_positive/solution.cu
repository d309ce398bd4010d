#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Trajectory:
// 1 thread_mapping: the predicate x > 0 is evaluated by one thread per element.
// 2 prefix_scan: each kept element's output position is the number of kept
//   elements before it, an exclusive scan of the predicate: per-tile counts are
//   scanned, and inside a tile warp ballots (__ballot_sync + __popc) give the
//   rank of every element, so order is preserved exactly.
// 3 kernel_fission: the work is split into three kernels with their own shapes:
//   count (many blocks), scan of the tile counts (one block), scatter (many
//   blocks), instead of one kernel that would need a grid-wide barrier.
// 4 minimize_transfers: the count is copied back first and only the `count`
//   compacted elements come back to the host, not an n-element buffer.
constexpr int kCpThreads = 256;
constexpr int kCpRounds = 8;
constexpr int kCpTile = kCpThreads * kCpRounds;  // 2048 elements per block
constexpr int kCpWarps = kCpThreads / 32;

__global__ void compact_count_kernel(const float* __restrict__ x, long long n, int* __restrict__ tile_counts) {
  const long long base = (long long)blockIdx.x * kCpTile;
  int c = 0;
#pragma unroll
  for (int r = 0; r < kCpRounds; ++r) {
    long long g = base + r * kCpThreads + threadIdx.x;
    if (g < n && x[g] > 0.0f) ++c;
  }
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  __shared__ int warp_counts[kCpWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_counts[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < kCpWarps; ++w) total += warp_counts[w];
    tile_counts[blockIdx.x] = total;
  }
}

// One block of 1024 threads: exclusive scan of `count` tile counts in chunks
// of 1024 with a running carry; also writes the grand total.
__global__ void compact_scan_kernel(const int* __restrict__ tile_counts, int count, int* __restrict__ tile_offsets,
                                    int* __restrict__ total) {
  __shared__ int warp_sums[32];
  __shared__ int carry_sh;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) carry_sh = 0;
  __syncthreads();
  for (int base = 0; base < count; base += blockDim.x) {
    int idx = base + threadIdx.x;
    int v = (idx < count) ? tile_counts[idx] : 0;
    int incl = v;
    for (int off = 1; off < 32; off <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += y;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      int w = warp_sums[lane];  // blockDim.x == 1024: 32 warps
      for (int off = 1; off < 32; off <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += y;
      }
      warp_sums[lane] = w;  // inclusive scan of warp sums
    }
    __syncthreads();
    int carry = carry_sh;
    int excl = carry + (warp > 0 ? warp_sums[warp - 1] : 0) + (incl - v);
    if (idx < count) tile_offsets[idx] = excl;
    __syncthreads();  // everyone has read carry_sh and warp_sums
    if (threadIdx.x == 0) carry_sh = carry + warp_sums[31];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = carry_sh;
}

__global__ void compact_scatter_kernel(const float* __restrict__ x, long long n, const int* __restrict__ tile_offsets,
                                       float* __restrict__ out) {
  __shared__ int warp_counts[kCpWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned lanes_below = (1u << lane) - 1u;
  const long long base = (long long)blockIdx.x * kCpTile;
  int running = tile_offsets[blockIdx.x];
  for (int r = 0; r < kCpRounds; ++r) {
    long long g = base + r * kCpThreads + threadIdx.x;
    float v = 0.0f;
    bool keep = false;
    if (g < n) {
      v = x[g];
      keep = v > 0.0f;
    }
    unsigned ballot = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int warp_off = 0, round_total = 0;
#pragma unroll
    for (int w = 0; w < kCpWarps; ++w) {
      int cw = warp_counts[w];
      if (w < warp) warp_off += cw;
      round_total += cw;
    }
    if (keep) out[running + warp_off + __popc(ballot & lanes_below)] = v;
    running += round_total;
    __syncthreads();  // warp_counts is rewritten in the next round
  }
}

int compactPositive(const std::vector<float>& x, std::vector<float>& positives) {
  positives.clear();
  long long n = (long long)x.size();
  if (n == 0) return 0;
  int tiles = (int)((n + kCpTile - 1) / kCpTile);
  float *dx = nullptr, *dout = nullptr;
  int *dcounts = nullptr, *doffsets = nullptr, *dtotal = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dout, (size_t)n * sizeof(float));
  cudaMalloc(&dcounts, (size_t)tiles * sizeof(int));
  cudaMalloc(&doffsets, (size_t)tiles * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dx, x.data(), (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  compact_count_kernel<<<tiles, kCpThreads>>>(dx, n, dcounts);
  compact_scan_kernel<<<1, 1024>>>(dcounts, tiles, doffsets, dtotal);
  compact_scatter_kernel<<<tiles, kCpThreads>>>(dx, n, doffsets, dout);
  int total = 0;
  cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  positives.resize((size_t)total);
  if (total > 0) cudaMemcpy(positives.data(), dout, (size_t)total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dcounts);
  cudaFree(doffsets);
  cudaFree(dtotal);
  return total;
}

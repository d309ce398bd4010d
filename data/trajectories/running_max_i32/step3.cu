#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <climits>

constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr int kTile = kBlock * kItems;
constexpr int kSumBlock = 1024;

namespace cg = cooperative_groups;

// Block-wide max-scan with cooperative groups: each 32-thread tile scans in
// registers with tile.shfl_up, tile totals are scanned by tile 0, and
// block.sync() separates the phases (plus a trailing sync for reuse).
// Returns the exclusive prefix max (INT_MIN for thread 0); *incl receives the
// inclusive one and *total the block maximum.
__device__ int block_scan_max(int v, int* incl, int* total) {
  __shared__ int tile_tot[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int lane = tile.thread_rank();
  int t_id = tile.meta_group_rank();
  int ntiles = tile.meta_group_size();
  for (int off = 1; off < 32; off <<= 1) {
    int t = tile.shfl_up(v, off);
    if (lane >= off) v = max(v, t);
  }
  int excl = tile.shfl_up(v, 1);
  if (lane == 0) excl = INT_MIN;
  if (lane == 31) tile_tot[t_id] = v;
  block.sync();
  if (t_id == 0) {
    int w = (lane < ntiles) ? tile_tot[lane] : INT_MIN;
    for (int off = 1; off < 32; off <<= 1) {
      int t = tile.shfl_up(w, off);
      if (lane >= off) w = max(w, t);
    }
    tile_tot[lane] = w;
  }
  block.sync();
  if (t_id > 0) {
    excl = max(excl, tile_tot[t_id - 1]);
    v = max(v, tile_tot[t_id - 1]);
  }
  *incl = v;
  *total = tile_tot[ntiles - 1];
  block.sync();
  return excl;
}

// Phase 2: one block turns the tile maxima into an inclusive running max,
// chunk by chunk with a carried maximum.
__global__ void scan_block_max_kernel(int count, int* m) {
  int carry = INT_MIN;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? m[i] : INT_MIN;
    int incl, total;
    block_scan_max(v, &incl, &total);
    if (i < count) m[i] = max(carry, incl);
    carry = max(carry, total);
  }
}

// 8 consecutive items per thread; INT_MIN (the max identity) past n.
__device__ __forceinline__ void load_items(const int* __restrict__ x, int base, int n, int (&v)[kItems]) {
#pragma unroll
  for (int k = 0; k < kItems; ++k) v[k] = (base + k < n) ? x[base + k] : INT_MIN;
}

__device__ __forceinline__ void store_items(int* __restrict__ y, int base, int n, const int (&v)[kItems]) {
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (base + k < n) y[base + k] = v[k];
}

// Phase 1: maximum of each 2048-element tile (8 items per thread).
__global__ void block_max_kernel(int n, const int* __restrict__ x, int* block_max) {
  __shared__ int tile_max[kBlock / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v[kItems];
  load_items(x, blockIdx.x * kTile + threadIdx.x * kItems, n, v);
  int m = v[0];
#pragma unroll
  for (int k = 1; k < kItems; ++k) m = max(m, v[k]);
  for (int off = 16; off > 0; off >>= 1) m = max(m, tile.shfl_down(m, off));
  if (tile.thread_rank() == 0) tile_max[tile.meta_group_rank()] = m;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    m = (tile.thread_rank() < kBlock / 32) ? tile_max[tile.thread_rank()] : INT_MIN;
    for (int off = 16; off > 0; off >>= 1) m = max(m, tile.shfl_down(m, off));
    if (tile.thread_rank() == 0) block_max[blockIdx.x] = m;
  }
}

// Phase 3: each thread scans its 8 items serially in registers; only the
// thread maxima go through the block scan, whose exclusive result (the max
// of all earlier threads) is combined with the max of all earlier tiles.
__global__ void block_scan_kernel(int n, const int* __restrict__ x, int* __restrict__ y,
                                  const int* __restrict__ scanned_max) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  int v[kItems];
  load_items(x, base, n, v);
#pragma unroll
  for (int k = 1; k < kItems; ++k) v[k] = max(v[k], v[k - 1]);
  int incl, total;
  int before = block_scan_max(v[kItems - 1], &incl, &total);
  if (blockIdx.x > 0) before = max(before, scanned_max[blockIdx.x - 1]);
#pragma unroll
  for (int k = 0; k < kItems; ++k) v[k] = max(v[k], before);
  store_items(y, base, n, v);
}

void runningMaximum(int n, const int* x, int* y) {
  if (n <= 0) return;
  int nb = (n + kTile - 1) / kTile;
  int *dx = nullptr, *dy = nullptr, *dm = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dy, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dm, static_cast<size_t>(nb) * sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  block_max_kernel<<<nb, kBlock>>>(n, dx, dm);
  scan_block_max_kernel<<<1, kSumBlock>>>(nb, dm);
  block_scan_kernel<<<nb, kBlock>>>(n, dx, dy, dm);
  cudaMemcpy(y, dy, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dm);
}

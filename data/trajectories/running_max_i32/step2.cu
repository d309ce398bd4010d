#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <climits>

constexpr int kBlock = 256;
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

// Phase 1: block maximum with tile shuffles, one shared slot per tile.
__global__ void block_max_kernel(int n, const int* __restrict__ x, int* block_max) {
  __shared__ int tile_max[kBlock / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * kBlock + threadIdx.x;
  int v = (i < n) ? x[i] : INT_MIN;
  for (int off = 16; off > 0; off >>= 1) v = max(v, tile.shfl_down(v, off));
  if (tile.thread_rank() == 0) tile_max[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = (tile.thread_rank() < kBlock / 32) ? tile_max[tile.thread_rank()] : INT_MIN;
    for (int off = 16; off > 0; off >>= 1) v = max(v, tile.shfl_down(v, off));
    if (tile.thread_rank() == 0) block_max[blockIdx.x] = v;
  }
}

// Phase 3: block scan seeded with the running max of all earlier blocks.
__global__ void block_scan_kernel(int n, const int* __restrict__ x, int* __restrict__ y,
                                  const int* __restrict__ scanned_max) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  int v = (i < n) ? x[i] : INT_MIN;
  int incl, total;
  block_scan_max(v, &incl, &total);
  int before = (blockIdx.x > 0) ? scanned_max[blockIdx.x - 1] : INT_MIN;
  if (i < n) y[i] = max(incl, before);
}

void runningMaximum(int n, const int* x, int* y) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
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

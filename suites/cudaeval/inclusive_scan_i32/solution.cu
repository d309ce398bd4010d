#include <cuda_runtime.h>

// Trajectory:
// 1 thread_mapping: give the work to many threads (tiles of the array).
// 2 prefix_scan: a work-efficient hierarchical scan: scan every tile, scan the
//   tile totals (recursively), then add each tile's offset.
// 3 register_tiling: each thread owns 8 consecutive elements and scans them
//   sequentially in registers, so only one value per thread enters the
//   parallel part of the scan.
// 4 warp_shuffle_reduction: the per-thread totals are scanned inside each warp
//   with __shfl_up_sync, and the 8 warp totals by one more shuffle scan.
// 5 shared_memory_tiling: the tile is staged through shared memory so that
//   global loads and stores are coalesced although each thread works on a
//   contiguous run (the shared array is padded by one word per 32 to avoid
//   bank conflicts on the strided per-thread accesses).
constexpr int kScanThreads = 256;
constexpr int kScanItems = 8;
constexpr int kScanTile = kScanThreads * kScanItems;  // 2048

__device__ __forceinline__ int pad_idx(int i) { return i + (i >> 5); }

__device__ __forceinline__ int warp_inclusive_scan(int x, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;
  }
  return x;
}

// Scans each tile of kScanTile elements independently; writes the tile total
// to tile_sums[blockIdx.x] when tile_sums is not null.
__global__ void scan_tiles_kernel(const int* __restrict__ in, int* __restrict__ out, int n, int* __restrict__ tile_sums) {
  __shared__ int s[kScanTile + kScanTile / 32];
  __shared__ int warp_tot[kScanThreads / 32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long base = (long long)blockIdx.x * kScanTile;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    int idx = k * kScanThreads + tid;
    long long g = base + idx;
    s[pad_idx(idx)] = (g < n) ? in[g] : 0;
  }
  __syncthreads();
  int v[kScanItems];
  int run = 0;
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    run += s[pad_idx(tid * kScanItems + j)];
    v[j] = run;
  }
  int incl = warp_inclusive_scan(run, lane);
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int w = (lane < kScanThreads / 32) ? warp_tot[lane] : 0;
    w = warp_inclusive_scan(w, lane);
    if (lane < kScanThreads / 32) warp_tot[lane] = w;  // inclusive warp totals
  }
  __syncthreads();
  int prefix = (incl - run) + (warp > 0 ? warp_tot[warp - 1] : 0);
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) s[pad_idx(tid * kScanItems + j)] = v[j] + prefix;
  if (tile_sums != nullptr && tid == kScanThreads - 1) tile_sums[blockIdx.x] = warp_tot[kScanThreads / 32 - 1];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    int idx = k * kScanThreads + tid;
    long long g = base + idx;
    if (g < n) out[g] = s[pad_idx(idx)];
  }
}

// Adds the inclusive scan of the previous tiles' totals to tiles 1, 2, ...
__global__ void add_tile_offsets_kernel(int* __restrict__ out, int n, const int* __restrict__ scanned_sums) {
  int tile = blockIdx.x + 1;
  int offset = scanned_sums[tile - 1];
  long long base = (long long)tile * kScanTile;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    long long g = base + k * kScanThreads + threadIdx.x;
    if (g < n) out[g] += offset;
  }
}

static void scan_on_device(const int* d_in, int* d_out, int n) {
  int tiles = (n + kScanTile - 1) / kScanTile;
  if (tiles <= 1) {
    scan_tiles_kernel<<<1, kScanThreads>>>(d_in, d_out, n, nullptr);
    return;
  }
  int *d_sums = nullptr, *d_sums_scanned = nullptr;
  cudaMalloc(&d_sums, (size_t)tiles * sizeof(int));
  cudaMalloc(&d_sums_scanned, (size_t)tiles * sizeof(int));
  scan_tiles_kernel<<<tiles, kScanThreads>>>(d_in, d_out, n, d_sums);
  scan_on_device(d_sums, d_sums_scanned, tiles);
  add_tile_offsets_kernel<<<tiles - 1, kScanThreads>>>(d_out, n, d_sums_scanned);
  cudaFree(d_sums);
  cudaFree(d_sums_scanned);
}

void inclusiveScanI32(const int* in, int* out, int n) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(int);
  int *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  scan_on_device(d_in, d_out, n);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

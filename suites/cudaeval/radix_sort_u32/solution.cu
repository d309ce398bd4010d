#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// Trajectory:
// 1 thread_mapping: keys are distributed over threads, tiles of 2048 keys per
//   block (8 rounds of 256 consecutive keys).
// 2 algorithmic_restructuring: comparison sorting is replaced by an LSD radix
//   sort, 4 stable passes over 8-bit digits; each pass is a histogram, a scan
//   and a scatter, all data-parallel.
// 3 atomic_aggregation: digit histograms are built per block in shared memory
//   and written once per block (digit-major), not with global atomics per key.
// 4 prefix_scan: a hierarchical scan of the digit-major count table gives every
//   (digit, block) pair its global starting offset.
// 5 kernel_fission: each pass runs as separate histogram, scan and scatter
//   kernels with their own launch shapes.
// 6 minimize_transfers: keys are copied to the device once, the passes
//   ping-pong between two device buffers, and the result is copied back once.
// The scatter keeps each pass stable: inside a round, __match_any_sync gives a
// key's rank among equal digits of its warp, per-warp digit counts in shared
// memory order the warps, and a per-digit running base carries across rounds.
constexpr int kRsThreads = 256;  // also the number of digit values
constexpr int kRsRounds = 8;
constexpr int kRsTile = kRsThreads * kRsRounds;
constexpr int kRsWarps = kRsThreads / 32;

// ---- generic inclusive scan of ints (hierarchical) ----
constexpr int kRsScanTile = 2048;

__device__ __forceinline__ int rs_warp_incl_scan(int x, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;
  }
  return x;
}

__global__ void rs_scan_tiles(const int* __restrict__ in, int* __restrict__ out, int n, int* __restrict__ tile_sums) {
  __shared__ int s[kRsScanTile + kRsScanTile / 32];
  __shared__ int warp_tot[8];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long base = (long long)blockIdx.x * kRsScanTile;
  for (int k = 0; k < 8; ++k) {
    int idx = k * 256 + tid;
    long long g = base + idx;
    s[idx + (idx >> 5)] = (g < n) ? in[g] : 0;
  }
  __syncthreads();
  int v[8];
  int run = 0;
  for (int j = 0; j < 8; ++j) {
    int idx = tid * 8 + j;
    run += s[idx + (idx >> 5)];
    v[j] = run;
  }
  int incl = rs_warp_incl_scan(run, lane);
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int w = (lane < 8) ? warp_tot[lane] : 0;
    w = rs_warp_incl_scan(w, lane);
    if (lane < 8) warp_tot[lane] = w;
  }
  __syncthreads();
  int prefix = (incl - run) + (warp > 0 ? warp_tot[warp - 1] : 0);
  for (int j = 0; j < 8; ++j) {
    int idx = tid * 8 + j;
    s[idx + (idx >> 5)] = v[j] + prefix;
  }
  if (tile_sums != nullptr && tid == 255) tile_sums[blockIdx.x] = warp_tot[7];
  __syncthreads();
  for (int k = 0; k < 8; ++k) {
    int idx = k * 256 + tid;
    long long g = base + idx;
    if (g < n) out[g] = s[idx + (idx >> 5)];
  }
}

__global__ void rs_add_offsets(int* __restrict__ out, int n, const int* __restrict__ scanned_sums) {
  int tile = blockIdx.x + 1;
  int offset = scanned_sums[tile - 1];
  long long base = (long long)tile * kRsScanTile;
  for (int k = 0; k < 8; ++k) {
    long long g = base + k * 256 + threadIdx.x;
    if (g < n) out[g] += offset;
  }
}

static void rs_inclusive_scan(const int* d_in, int* d_out, int n) {
  int tiles = (n + kRsScanTile - 1) / kRsScanTile;
  if (tiles <= 1) {
    rs_scan_tiles<<<1, 256>>>(d_in, d_out, n, nullptr);
    return;
  }
  int *d_sums = nullptr, *d_scanned = nullptr;
  cudaMalloc(&d_sums, (size_t)tiles * sizeof(int));
  cudaMalloc(&d_scanned, (size_t)tiles * sizeof(int));
  rs_scan_tiles<<<tiles, 256>>>(d_in, d_out, n, d_sums);
  rs_inclusive_scan(d_sums, d_scanned, tiles);
  rs_add_offsets<<<tiles - 1, 256>>>(d_out, n, d_scanned);
  cudaFree(d_sums);
  cudaFree(d_scanned);
}

// ---- radix sort passes ----
__global__ void rs_histogram(const uint32_t* __restrict__ keys, int n, int shift, int tiles, int* __restrict__ counts) {
  __shared__ int hist[kRsThreads];
  hist[threadIdx.x] = 0;
  __syncthreads();
  const long long base = (long long)blockIdx.x * kRsTile;
  for (int r = 0; r < kRsRounds; ++r) {
    long long g = base + r * kRsThreads + threadIdx.x;
    if (g < n) atomicAdd(&hist[(keys[g] >> shift) & 0xffu], 1);
  }
  __syncthreads();
  counts[(long long)threadIdx.x * tiles + blockIdx.x] = hist[threadIdx.x];  // digit-major
}

__global__ void rs_scatter(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int n, int shift, int tiles,
                           const int* __restrict__ counts, const int* __restrict__ incl) {
  __shared__ int digit_base[kRsThreads];
  __shared__ int wcount[kRsWarps][kRsThreads];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned lanes_below = (1u << lane) - 1u;
  {
    long long slot = (long long)tid * tiles + blockIdx.x;
    digit_base[tid] = incl[slot] - counts[slot];  // exclusive offset of (digit tid, this tile)
    for (int w = 0; w < kRsWarps; ++w) wcount[w][tid] = 0;
  }
  __syncthreads();
  const long long base = (long long)blockIdx.x * kRsTile;
  for (int r = 0; r < kRsRounds; ++r) {
    long long g = base + r * kRsThreads + tid;
    bool valid = g < n;
    uint32_t key = valid ? in[g] : 0u;
    int d = valid ? (int)((key >> shift) & 0xffu) : kRsThreads;  // sentinel groups the invalid lanes
    unsigned peers = __match_any_sync(0xffffffffu, d);
    int rank = __popc(peers & lanes_below);
    if (valid && rank == 0) wcount[warp][d] = __popc(peers);
    __syncthreads();
    if (valid) {
      int pos = digit_base[d] + rank;
      for (int w = 0; w < warp; ++w) pos += wcount[w][d];
      out[pos] = key;
    }
    __syncthreads();
    int tot = 0;
    for (int w = 0; w < kRsWarps; ++w) {
      tot += wcount[w][tid];
      wcount[w][tid] = 0;
    }
    digit_base[tid] += tot;
    __syncthreads();
  }
}

void radixSortU32(std::vector<uint32_t>& keys) {
  int n = (int)keys.size();
  if (n <= 1) return;
  int tiles = (n + kRsTile - 1) / kRsTile;
  int table = kRsThreads * tiles;
  uint32_t *d_a = nullptr, *d_b = nullptr;
  int *d_counts = nullptr, *d_incl = nullptr;
  cudaMalloc(&d_a, (size_t)n * sizeof(uint32_t));
  cudaMalloc(&d_b, (size_t)n * sizeof(uint32_t));
  cudaMalloc(&d_counts, (size_t)table * sizeof(int));
  cudaMalloc(&d_incl, (size_t)table * sizeof(int));
  cudaMemcpy(d_a, keys.data(), (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice);
  uint32_t* src = d_a;
  uint32_t* dst = d_b;
  for (int shift = 0; shift < 32; shift += 8) {
    rs_histogram<<<tiles, kRsThreads>>>(src, n, shift, tiles, d_counts);
    rs_inclusive_scan(d_counts, d_incl, table);
    rs_scatter<<<tiles, kRsThreads>>>(src, dst, n, shift, tiles, d_counts, d_incl);
    uint32_t* t = src;
    src = dst;
    dst = t;
  }
  // Four passes: the sorted keys are back in d_a (== src).
  cudaMemcpy(keys.data(), src, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_counts);
  cudaFree(d_incl);
}

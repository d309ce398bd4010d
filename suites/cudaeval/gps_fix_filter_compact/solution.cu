#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct GpsFix {
  int device;
  int flags;
  float lat;
  float lon;
  float speed_knots;
  float alt_ft;
  float hdop;
  int sats;
};

struct TrackPoint {
  int device;
  float lat;
  float lon;
  float speed_ms;
  float alt_m;
};

constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;
constexpr int kScanThreads = 1024;

__device__ __forceinline__ bool keep_fix(const GpsFix& f, float max_hdop) {
  return (f.flags & 1) != 0 && f.sats >= 4 && f.hdop <= max_hdop && fabsf(f.lat) <= 90.0f && fabsf(f.lon) <= 180.0f;
}

// Step 1 (thread_mapping) and Step 2 (register_tiling): each thread tests
// kItems fixes of its block's tile. Step 3 (memory_coalescing): item j of
// thread t is fix base + j * 256 + t, so a warp reads 32 consecutive fixes.
// Step 4 (warp_shuffle_reduction): warp-level primitives count the kept fixes
// (__ballot_sync + __popc per warp, then the warp totals in shared memory).
__global__ void count_kernel(int n, const GpsFix* __restrict__ fixes, float max_hdop, int* __restrict__ tile_count) {
  __shared__ int warp_cnt[kThreads / 32];
  int base = blockIdx.x * kTile;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int c = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    int i = base + j * kThreads + threadIdx.x;
    bool k = i < n && keep_fix(fixes[i], max_hdop);
    c += __popc(__ballot_sync(0xffffffffu, k));
  }
  if (lane == 0) warp_cnt[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += warp_cnt[w];
    tile_count[blockIdx.x] = s;
  }
}

// Step 5 (prefix_scan): one block turns the tile counts into exclusive
// offsets (chunked block scans with warp shuffles) and writes the total.
__device__ int gps_block_scan(int v, int* total) {
  __shared__ int warp_tot[kScanThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = warp_tot[lane];
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_tot[warp - 1];
  *total = warp_tot[kScanThreads / 32 - 1];
  __syncthreads();
  return v;
}

__global__ void scan_kernel(int ntiles, const int* __restrict__ tile_count, int* __restrict__ tile_off,
                            int* __restrict__ total_out) {
  int carry = 0;
  for (int b = 0; b < ntiles; b += kScanThreads) {
    int i = b + threadIdx.x;
    int v = i < ntiles ? tile_count[i] : 0;
    int total;
    int inc = gps_block_scan(v, &total);
    if (i < ntiles) tile_off[i] = carry + inc - v;
    carry += total;
  }
  if (threadIdx.x == 0) *total_out = carry;
}

// Step 6 (kernel_fusion): the scatter re-evaluates the predicate (instead of
// reading stored flags), ranks each kept fix (ballot + popc of the lower
// lanes, plus the counts of the lower warps in the same round, plus earlier
// rounds, plus the tile offset), converts the units and writes the output
// record directly. The four rounds' warp counts go to shared memory together,
// so the block synchronises once.
__global__ void scatter_kernel(int n, const GpsFix* __restrict__ fixes, float max_hdop,
                               const int* __restrict__ tile_off, TrackPoint* __restrict__ out) {
  __shared__ int warp_cnt[kItems][kThreads / 32];
  int base = blockIdx.x * kTile;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  GpsFix f[kItems];
  bool keep[kItems];
  unsigned int ballot[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    int i = base + j * kThreads + threadIdx.x;
    keep[j] = false;
    if (i < n) {
      f[j] = fixes[i];
      keep[j] = keep_fix(f[j], max_hdop);
    }
    ballot[j] = __ballot_sync(0xffffffffu, keep[j]);
    if (lane == 0) warp_cnt[j][warp] = __popc(ballot[j]);
  }
  __syncthreads();
  int running = tile_off[blockIdx.x];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    int warp_before = 0, round_total = 0;
    for (int w = 0; w < kThreads / 32; ++w) {
      int c = warp_cnt[j][w];
      if (w < warp) warp_before += c;
      round_total += c;
    }
    if (keep[j]) {
      int pos = running + warp_before + __popc(ballot[j] & ((1u << lane) - 1u));
      const GpsFix& g = f[j];
      out[pos] = TrackPoint{g.device, g.lat, g.lon, g.speed_knots * 0.514444f, g.alt_ft * 0.3048f};
    }
    running += round_total;
  }
}

int filterGpsFixes(const std::vector<GpsFix>& fixes, float max_hdop, std::vector<TrackPoint>& out) {
  out.clear();
  int n = (int)fixes.size();
  if (n == 0) return 0;
  int ntiles = (n + kTile - 1) / kTile;
  GpsFix* dfix = nullptr;
  TrackPoint* dout = nullptr;
  int *dcount = nullptr, *doff = nullptr, *dtotal = nullptr;
  cudaMalloc(&dfix, (size_t)n * sizeof(GpsFix));
  cudaMalloc(&dout, (size_t)n * sizeof(TrackPoint));
  cudaMalloc(&dcount, (size_t)ntiles * sizeof(int));
  cudaMalloc(&doff, (size_t)ntiles * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dfix, fixes.data(), (size_t)n * sizeof(GpsFix), cudaMemcpyHostToDevice);
  count_kernel<<<ntiles, kThreads>>>(n, dfix, max_hdop, dcount);
  scan_kernel<<<1, kScanThreads>>>(ntiles, dcount, doff, dtotal);
  scatter_kernel<<<ntiles, kThreads>>>(n, dfix, max_hdop, doff, dout);
  // Step 7 (minimize_transfers): the count comes back first, then exactly
  // that many records.
  int total = 0;
  cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  out.resize((size_t)total);
  if (total > 0) cudaMemcpy(out.data(), dout, (size_t)total * sizeof(TrackPoint), cudaMemcpyDeviceToHost);
  cudaFree(dfix);
  cudaFree(dout);
  cudaFree(dcount);
  cudaFree(doff);
  cudaFree(dtotal);
  return total;
}

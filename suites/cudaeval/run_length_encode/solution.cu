#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Trajectory:
// 1 thread_mapping: each element is examined by one thread.
// 2 algorithmic_restructuring: the sequential run walk becomes a data-parallel
//   formulation: element i starts a run iff i == 0 or data[i] != data[i-1];
//   run r's value and start are those of the r-th head, and its length is
//   start[r+1] - start[r] (n for the last run).
// 3 prefix_scan: the run index of a head is the number of heads before it:
//   heads are counted per 2048-element tile, the tile counts are scanned, and
//   within a tile warp ballots rank the heads in order.
// 4 warp_shuffle_reduction: per-tile head counts are summed with warp shuffles
//   and the tile-count scan uses __shfl_up_sync warp scans.
// 5 kernel_fusion: head flags are never materialised: both the counting and
//   the scatter kernels recompute them from the data on the fly, and the
//   scatter writes each run's value and start position in the same pass.
// 6 minimize_transfers: the run count is copied back first and only the
//   `count` values and lengths travel back to the host.
constexpr int kRlThreads = 256;
constexpr int kRlRounds = 8;
constexpr int kRlTile = kRlThreads * kRlRounds;
constexpr int kRlWarps = kRlThreads / 32;

__device__ __forceinline__ bool rl_is_head(const int* __restrict__ d, long long g) {
  return g == 0 || d[g] != d[g - 1];
}

__global__ void rl_count_kernel(const int* __restrict__ d, long long n, int* __restrict__ tile_counts) {
  const long long base = (long long)blockIdx.x * kRlTile;
  int c = 0;
#pragma unroll
  for (int r = 0; r < kRlRounds; ++r) {
    long long g = base + r * kRlThreads + threadIdx.x;
    if (g < n && rl_is_head(d, g)) ++c;
  }
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  __shared__ int warp_counts[kRlWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_counts[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < kRlWarps; ++w) total += warp_counts[w];
    tile_counts[blockIdx.x] = total;
  }
}

// One block of 1024 threads: exclusive scan of the tile counts (chunks of 1024
// with a running carry) and the total number of runs.
__global__ void rl_scan_kernel(const int* __restrict__ counts, int count, int* __restrict__ offsets,
                               int* __restrict__ total) {
  __shared__ int warp_sums[32];
  __shared__ int carry_sh;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) carry_sh = 0;
  __syncthreads();
  for (int base = 0; base < count; base += blockDim.x) {
    int idx = base + threadIdx.x;
    int v = (idx < count) ? counts[idx] : 0;
    int incl = v;
    for (int off = 1; off < 32; off <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += y;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      int w = warp_sums[lane];
      for (int off = 1; off < 32; off <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += y;
      }
      warp_sums[lane] = w;
    }
    __syncthreads();
    int carry = carry_sh;
    if (idx < count) offsets[idx] = carry + (warp > 0 ? warp_sums[warp - 1] : 0) + (incl - v);
    __syncthreads();
    if (threadIdx.x == 0) carry_sh = carry + warp_sums[31];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = carry_sh;
}

__global__ void rl_scatter_kernel(const int* __restrict__ d, long long n, const int* __restrict__ offsets,
                                  int* __restrict__ run_values, int* __restrict__ run_starts) {
  __shared__ int warp_counts[kRlWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned lanes_below = (1u << lane) - 1u;
  const long long base = (long long)blockIdx.x * kRlTile;
  int running = offsets[blockIdx.x];
  for (int r = 0; r < kRlRounds; ++r) {
    long long g = base + r * kRlThreads + threadIdx.x;
    bool head = (g < n) && rl_is_head(d, g);
    unsigned ballot = __ballot_sync(0xffffffffu, head);
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int warp_off = 0, round_total = 0;
#pragma unroll
    for (int w = 0; w < kRlWarps; ++w) {
      int cw = warp_counts[w];
      if (w < warp) warp_off += cw;
      round_total += cw;
    }
    if (head) {
      int run = running + warp_off + __popc(ballot & lanes_below);
      run_values[run] = d[g];
      run_starts[run] = (int)g;
    }
    running += round_total;
    __syncthreads();
  }
}

__global__ void rl_lengths_kernel(const int* __restrict__ run_starts, int runs, int n, int* __restrict__ run_lengths) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  int end = (r + 1 < runs) ? run_starts[r + 1] : n;
  run_lengths[r] = end - run_starts[r];
}

int runLengthEncode(const std::vector<int>& data, std::vector<int>& runValues, std::vector<int>& runLengths) {
  runValues.clear();
  runLengths.clear();
  long long n = (long long)data.size();
  if (n == 0) return 0;
  int tiles = (int)((n + kRlTile - 1) / kRlTile);
  int *dd = nullptr, *dvals = nullptr, *dstarts = nullptr, *dlens = nullptr;
  int *dcounts = nullptr, *doffsets = nullptr, *dtotal = nullptr;
  cudaMalloc(&dd, (size_t)n * sizeof(int));
  cudaMalloc(&dvals, (size_t)n * sizeof(int));
  cudaMalloc(&dstarts, (size_t)n * sizeof(int));
  cudaMalloc(&dlens, (size_t)n * sizeof(int));
  cudaMalloc(&dcounts, (size_t)tiles * sizeof(int));
  cudaMalloc(&doffsets, (size_t)tiles * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dd, data.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  rl_count_kernel<<<tiles, kRlThreads>>>(dd, n, dcounts);
  rl_scan_kernel<<<1, 1024>>>(dcounts, tiles, doffsets, dtotal);
  rl_scatter_kernel<<<tiles, kRlThreads>>>(dd, n, doffsets, dvals, dstarts);
  int runs = 0;
  cudaMemcpy(&runs, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  if (runs > 0) {
    rl_lengths_kernel<<<(runs + 255) / 256, 256>>>(dstarts, runs, (int)n, dlens);
    runValues.resize((size_t)runs);
    runLengths.resize((size_t)runs);
    cudaMemcpy(runValues.data(), dvals, (size_t)runs * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(runLengths.data(), dlens, (size_t)runs * sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaFree(dd);
  cudaFree(dvals);
  cudaFree(dstarts);
  cudaFree(dlens);
  cudaFree(dcounts);
  cudaFree(doffsets);
  cudaFree(dtotal);
  return runs;
}

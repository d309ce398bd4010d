#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

#define NT 1024                 // one persistent block
#define ITEMS 4                // cells per thread per chunk
#define CHUNK (NT * ITEMS)
#define NEG_INF (-(1LL << 60))

struct OpSum {
  __device__ long long operator()(long long a, long long b) const { return a + b; }
};
struct OpMax {
  __device__ long long operator()(long long a, long long b) const { return a > b ? a : b; }
};

// Exclusive block-wide scan of one value per thread (any associative op with an
// identity): shuffle scan in each warp, shuffle scan of the warp totals, then
// combine. Also returns the block total. warp_tot must hold 32 values.
template <class Op>
__device__ long long block_exclusive_scan(long long v, long long identity, Op op, long long* warp_tot,
                                          long long& total) {
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  long long x = v;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    long long y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x = op(y, x);
  }
  if (lane == 31) warp_tot[wid] = x;
  __syncthreads();
  if (wid == 0) {
    long long w = lane < nw ? warp_tot[lane] : identity;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      long long y = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w = op(y, w);
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  long long warp_prefix = wid > 0 ? warp_tot[wid - 1] : identity;
  total = warp_tot[nw - 1];
  long long before = __shfl_up_sync(0xffffffffu, x, 1);
  if (lane == 0) before = identity;
  long long r = op(warp_prefix, before);
  __syncthreads();  // warp_tot is reused by the next scan
  return r;
}

// Four consecutive cells per thread: each thread scans its four cells sequentially
// in registers and the block-wide scans run on per-thread aggregates, so a chunk
// covers 4096 cells and the number of block scans (and their barriers) per row
// drops four-fold.
__global__ void __launch_bounds__(NT) path_rows_scan(const int* __restrict__ grid, int rows, int cols,
                                                     long long* rowa, long long* rowb, long long* result) {
  __shared__ long long warp_tot[32];
  long long* prev = rowa;  // row i-1 (row -1 = {0, -inf, ...} makes row 0 the plain prefix sum)
  long long* cur = rowb;
  for (int j = threadIdx.x; j < cols; j += NT) prev[j] = j == 0 ? 0 : NEG_INF;
  __syncthreads();
  for (int i = 0; i < rows; ++i) {
    long long carry_sum = 0, carry_max = NEG_INF;
    for (int base = 0; base < cols; base += CHUNK) {
      long long g[ITEMS];
#pragma unroll
      for (int q = 0; q < ITEMS; ++q) {
        int j = base + threadIdx.x * ITEMS + q;
        g[q] = j < cols ? (long long)grid[(size_t)i * cols + j] : 0;
      }
      // P[j]: prefix sums of row i; A[j] = prev[j] - P[j-1]; dp[j] = P[j] + max_{k<=j} A[k]
      long long psum[ITEMS], amax[ITEMS];
      long long run = 0;
#pragma unroll
      for (int q = 0; q < ITEMS; ++q) {
        run += g[q];
        psum[q] = run;
      }
      long long tot_sum;
      long long excl_sum = block_exclusive_scan(run, 0LL, OpSum(), warp_tot, tot_sum);
      long long runmax = NEG_INF;
#pragma unroll
      for (int q = 0; q < ITEMS; ++q) {
        int j = base + threadIdx.x * ITEMS + q;
        long long P = carry_sum + excl_sum + psum[q];
        long long a = j < cols ? prev[j] - (P - g[q]) : NEG_INF;
        runmax = max(runmax, a);
        amax[q] = runmax;
      }
      long long tot_max;
      long long excl_max = block_exclusive_scan(runmax, NEG_INF, OpMax(), warp_tot, tot_max);
#pragma unroll
      for (int q = 0; q < ITEMS; ++q) {
        int j = base + threadIdx.x * ITEMS + q;
        if (j < cols) {
          long long P = carry_sum + excl_sum + psum[q];
          long long M = max(carry_max, max(excl_max, amax[q]));
          cur[j] = P + M;
        }
      }
      carry_sum += tot_sum;
      carry_max = max(carry_max, tot_max);
    }
    __syncthreads();  // row i complete before it is read as prev
    long long* t = prev;
    prev = cur;
    cur = t;
  }
  if (threadIdx.x == 0) *result = prev[cols - 1];
}

int64_t max_path_sum(const std::vector<int>& grid, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return 0;
  size_t n = (size_t)rows * cols;
  int* d_grid = nullptr;
  long long *d_a = nullptr, *d_b = nullptr, *d_res = nullptr;
  cudaMalloc(&d_grid, n * sizeof(int));
  cudaMalloc(&d_a, (size_t)cols * sizeof(long long));
  cudaMalloc(&d_b, (size_t)cols * sizeof(long long));
  cudaMalloc(&d_res, sizeof(long long));
  cudaMemcpy(d_grid, grid.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  path_rows_scan<<<1, NT>>>(d_grid, rows, cols, d_a, d_b, d_res);
  long long result = 0;
  cudaMemcpy(&result, d_res, sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(d_grid);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_res);
  return (int64_t)result;
}

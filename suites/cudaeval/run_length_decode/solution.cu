#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

constexpr int kThreads = 256;
constexpr int kItems = 4;                    // counts per thread in the scan
constexpr int kTile = kThreads * kItems;     // counts per block

// Step 4 (warp_shuffle_reduction): inclusive scan of one value per thread
// across a warp with __shfl_up_sync, then across the block's warps through
// shared memory. Returns the inclusive prefix; *total gets the block's sum.
__device__ long long block_inclusive_scan(long long v, long long* total) {
  __shared__ long long warp_tot[kThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 1; off < 32; off <<= 1) {
    long long y = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += y;
  }
  if (lane == 31) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    long long w = lane < kThreads / 32 ? warp_tot[lane] : 0;
    for (int off = 1; off < kThreads / 32; off <<= 1) {
      long long y = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += y;
    }
    if (lane < kThreads / 32) warp_tot[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_tot[warp - 1];
  *total = warp_tot[kThreads / 32 - 1];
  __syncthreads();
  return v;
}

// Step 2 (prefix_scan), phase 1, with Step 3 (register_tiling): each thread
// owns kItems consecutive counts, sums them in registers, the block scans the
// thread sums, and each thread writes its kItems exclusive offsets; the
// block's total is recorded.
__global__ void scan_blocks_kernel(int n, const int* __restrict__ counts, long long* __restrict__ offs,
                                   long long* __restrict__ block_tot) {
  int first = blockIdx.x * kTile + threadIdx.x * kItems;
  long long c[kItems];
  long long mine = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    c[j] = first + j < n ? counts[first + j] : 0;
    mine += c[j];
  }
  long long total;
  long long run = block_inclusive_scan(mine, &total) - mine;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (first + j < n) offs[first + j] = run;
    run += c[j];
  }
  if (threadIdx.x == 0) block_tot[blockIdx.x] = total;
}

// Phase 2: one block scans the block totals (exclusive, in place) in chunks
// of 256, carrying the running sum; the grand total goes to *grand.
__global__ void scan_totals_kernel(int nblocks, long long* __restrict__ block_tot, long long* __restrict__ grand) {
  long long carry = 0;
  for (int base = 0; base < nblocks; base += kThreads) {
    int i = base + threadIdx.x;
    long long v = i < nblocks ? block_tot[i] : 0;
    long long total;
    long long inc = block_inclusive_scan(v, &total);
    if (i < nblocks) block_tot[i] = carry + inc - v;
    carry += total;
  }
  if (threadIdx.x == 0) *grand = carry;
}

// Phase 3: add each block's base offset.
__global__ void add_base_kernel(int n, const long long* __restrict__ block_tot, long long* __restrict__ offs) {
  int first = blockIdx.x * kTile;
  long long base = block_tot[blockIdx.x];
  for (int i = first + threadIdx.x; i < first + kTile && i < n; i += kThreads) offs[i] += base;
}

constexpr int kPerThread = 8;

// Step 1 (thread_mapping) and Step 5 (load_balancing): work is divided by
// OUTPUT, not by run: each thread writes kPerThread consecutive output
// elements, whatever the run lengths (a 300-long run and a 1-long run cost
// the same per element). It binary-searches the run of its first element (the
// last r with offs[r] <= o; zero-length runs share their offset with the
// next run, so the last such r is the non-empty one) and walks forward.
__global__ void expand_kernel(int n, long long total, const long long* __restrict__ offs,
                              const int* __restrict__ values, int* __restrict__ out) {
  long long nseg = (total + kPerThread - 1) / kPerThread;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long sgm = (long long)blockIdx.x * blockDim.x + threadIdx.x; sgm < nseg; sgm += stride) {
    long long o = sgm * kPerThread;
    long long oend = o + kPerThread < total ? o + kPerThread : total;
    int lo = 0, hi = n;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (__ldg(&offs[mid]) <= o) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    int r = lo - 1;
    long long next = r + 1 < n ? __ldg(&offs[r + 1]) : total;
    int v = __ldg(&values[r]);
    for (; o < oend; ++o) {
      while (o >= next) {
        ++r;
        next = r + 1 < n ? __ldg(&offs[r + 1]) : total;
        v = __ldg(&values[r]);
      }
      out[o] = v;
    }
  }
}

void runLengthDecode(const std::vector<int>& values, const std::vector<int>& counts, std::vector<int>& out) {
  out.clear();
  int n = (int)values.size();
  if (n == 0) return;
  int nblocks = (n + kTile - 1) / kTile;
  int *dvals = nullptr, *dcounts = nullptr, *dout = nullptr;
  long long *doffs = nullptr, *dtot = nullptr, *dgrand = nullptr;
  cudaMalloc(&dvals, (size_t)n * sizeof(int));
  cudaMalloc(&dcounts, (size_t)n * sizeof(int));
  cudaMalloc(&doffs, (size_t)n * sizeof(long long));
  cudaMalloc(&dtot, (size_t)nblocks * sizeof(long long));
  cudaMalloc(&dgrand, sizeof(long long));
  cudaMemcpy(dvals, values.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dcounts, counts.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  scan_blocks_kernel<<<nblocks, kThreads>>>(n, dcounts, doffs, dtot);
  scan_totals_kernel<<<1, kThreads>>>(nblocks, dtot, dgrand);
  add_base_kernel<<<nblocks, kThreads>>>(n, dtot, doffs);
  long long total = 0;
  cudaMemcpy(&total, dgrand, sizeof(long long), cudaMemcpyDeviceToHost);
  if (total > 0) {
    cudaMalloc(&dout, (size_t)total * sizeof(int));
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    long long needed = (total / kPerThread + 256) / 256;
    long long cap = (long long)sms * 16;
    expand_kernel<<<(int)(needed < cap ? needed : cap), 256>>>(n, total, doffs, dvals, dout);
    out.resize((size_t)total);
    cudaMemcpy(out.data(), dout, (size_t)total * sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaFree(dvals);
  cudaFree(dcounts);
  cudaFree(doffs);
  cudaFree(dtot);
  cudaFree(dgrand);
  cudaFree(dout);
}

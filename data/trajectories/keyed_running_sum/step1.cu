#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kSumBlock = 1024;

struct Seg {
  int f;  // 1 if the range contains the start of a run
  int v;  // sum from the last run start in the range (or the range start) to its end
};

// Combine an earlier range a with the later range b (not commutative);
// {0, 0} is the identity on both sides.
__device__ __forceinline__ Seg seg_op(Seg a, Seg b) {
  Seg r;
  r.f = a.f | b.f;
  r.v = b.f ? b.v : a.v + b.v;
  return r;
}

// Element i as a pair: it starts a run when its key differs from the left neighbour's.
__device__ __forceinline__ Seg load_pair(const int* keys, const int* values, int i, int n) {
  if (i >= n) return Seg{0, 0};
  int f = (i == 0 || keys[i] != keys[i - 1]) ? 1 : 0;
  return Seg{f, values[i]};
}

// Double-buffered Hillis-Steele inclusive scan of one pair per thread (B
// threads); the earlier operand always stays on the left. *total receives the
// block aggregate; callers barrier before reusing the buffers.
template <int B>
__device__ Seg block_scan(Seg x, Seg* total) {
  __shared__ int bf[2 * B], bv[2 * B];
  int tid = threadIdx.x;
  int pin = 0;
  bf[tid] = x.f;
  bv[tid] = x.v;
  __syncthreads();
  for (int off = 1; off < B; off <<= 1) {
    Seg cur{bf[pin * B + tid], bv[pin * B + tid]};
    if (tid >= off) cur = seg_op(Seg{bf[pin * B + tid - off], bv[pin * B + tid - off]}, cur);
    pin ^= 1;
    bf[pin * B + tid] = cur.f;
    bv[pin * B + tid] = cur.v;
    __syncthreads();
  }
  *total = Seg{bf[pin * B + B - 1], bv[pin * B + B - 1]};
  return Seg{bf[pin * B + tid], bv[pin * B + tid]};
}

// Phase 1: the aggregate pair of every 256-element block.
__global__ void block_agg_kernel(int n, const int* keys, const int* values, Seg* agg) {
  Seg total;
  block_scan<kBlock>(load_pair(keys, values, blockIdx.x * kBlock + threadIdx.x, n), &total);
  if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

// Phase 2: one block scans the aggregates in place, 1024 at a time with a carry.
__global__ void scan_agg_kernel(int count, Seg* agg) {
  Seg carry{0, 0};
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    Seg total;
    Seg r = block_scan<kSumBlock>(i < count ? agg[i] : Seg{0, 0}, &total);
    if (i < count) agg[i] = seg_op(carry, r);
    carry = seg_op(carry, total);
    __syncthreads();
  }
}

// Phase 3: rescan each block, prefixed by the scanned aggregate of the earlier blocks.
__global__ void block_out_kernel(int n, const int* keys, const int* values, const Seg* scanned, int* out) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  Seg total;
  Seg r = block_scan<kBlock>(load_pair(keys, values, i, n), &total);
  Seg before = blockIdx.x > 0 ? scanned[blockIdx.x - 1] : Seg{0, 0};
  if (i < n) out[i] = seg_op(before, r).v;
}

void keyedRunningSum(int n, const int* keys, const int* values, int* out) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dkeys = nullptr, *dvals = nullptr, *dout = nullptr;
  Seg* dagg = nullptr;
  cudaMalloc(&dkeys, bytes);
  cudaMalloc(&dvals, bytes);
  cudaMalloc(&dout, bytes);
  cudaMalloc(&dagg, static_cast<size_t>(nb) * sizeof(Seg));
  cudaMemcpy(dkeys, keys, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dvals, values, bytes, cudaMemcpyHostToDevice);
  block_agg_kernel<<<nb, kBlock>>>(n, dkeys, dvals, dagg);
  scan_agg_kernel<<<1, kSumBlock>>>(nb, dagg);
  block_out_kernel<<<nb, kBlock>>>(n, dkeys, dvals, dagg, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dkeys);
  cudaFree(dvals);
  cudaFree(dout);
  cudaFree(dagg);
}

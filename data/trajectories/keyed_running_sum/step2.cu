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

// Shuffle scan of one pair per lane; the shuffled (earlier) pair goes on the left.
__device__ __forceinline__ Seg warp_scan(Seg x, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    Seg t;
    t.f = __shfl_up_sync(0xffffffffu, x.f, off);
    t.v = __shfl_up_sync(0xffffffffu, x.v, off);
    if (lane >= off) x = seg_op(t, x);
  }
  return x;
}

// Block scan: every warp scans in registers, warp 0 scans the warp aggregates,
// and each warp is prefixed with the aggregate of the warps before it.
// *total receives the block aggregate; the trailing barrier allows reuse.
template <int B>
__device__ Seg block_scan(Seg x, Seg* total) {
  constexpr int W = B / 32;
  __shared__ int wf[W], wv[W];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  x = warp_scan(x, lane);
  if (lane == 31) {
    wf[warp] = x.f;
    wv[warp] = x.v;
  }
  __syncthreads();
  if (warp == 0) {
    Seg w = lane < W ? Seg{wf[lane], wv[lane]} : Seg{0, 0};
    w = warp_scan(w, lane);
    if (lane < W) {
      wf[lane] = w.f;
      wv[lane] = w.v;
    }
  }
  __syncthreads();
  if (warp > 0) x = seg_op(Seg{wf[warp - 1], wv[warp - 1]}, x);
  *total = Seg{wf[W - 1], wv[W - 1]};
  __syncthreads();
  return x;
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

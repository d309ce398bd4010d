#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr int kTile = kBlock * kItems;
constexpr int kSumBlock = 1024;

struct Seg {
  int f;  // 1 if the range contains a segment head
  int v;  // sum from the last head in the range (or from its start) to its end
};

// Combine an earlier range a with the later range b.
__device__ __forceinline__ Seg seg_op(Seg a, Seg b) {
  Seg r;
  r.f = a.f | b.f;
  r.v = b.f ? b.v : a.v + b.v;
  return r;
}

// Block-wide inclusive segmented scan with warp shuffles: each warp scans in
// registers (earlier lane on the left), warp aggregates are scanned by warp 0,
// and each warp is prefixed with the aggregate of the warps before it.
// *total receives the block aggregate. Trailing barrier allows reuse.
__device__ Seg block_seg_scan(Seg x, Seg* total) {
  __shared__ int wf[32], wv[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = blockDim.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    Seg t;
    t.f = __shfl_up_sync(0xffffffffu, x.f, off);
    t.v = __shfl_up_sync(0xffffffffu, x.v, off);
    if (lane >= off) x = seg_op(t, x);
  }
  if (lane == 31) {
    wf[warp] = x.f;
    wv[warp] = x.v;
  }
  __syncthreads();
  if (warp == 0) {
    Seg w = (lane < nwarps) ? Seg{wf[lane], wv[lane]} : Seg{0, 0};
    for (int off = 1; off < 32; off <<= 1) {
      Seg t;
      t.f = __shfl_up_sync(0xffffffffu, w.f, off);
      t.v = __shfl_up_sync(0xffffffffu, w.v, off);
      if (lane >= off) w = seg_op(t, w);
    }
    wf[lane] = w.f;
    wv[lane] = w.v;
  }
  __syncthreads();
  if (warp > 0) x = seg_op(Seg{wf[warp - 1], wv[warp - 1]}, x);
  *total = Seg{wf[nwarps - 1], wv[nwarps - 1]};
  __syncthreads();
  return x;
}

__global__ void scan_aggregates_kernel(int count, Seg* agg) {
  Seg carry{0, 0};
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    Seg x = (i < count) ? agg[i] : Seg{0, 0};
    Seg total;
    Seg r = block_seg_scan(x, &total);
    if (i < count) agg[i] = seg_op(carry, r);
    carry = seg_op(carry, total);
  }
}

// Each thread owns 8 consecutive elements and folds them serially in
// registers; only the per-thread aggregates go through the block scan.
__device__ __forceinline__ void load_items(const int* __restrict__ values, const int* __restrict__ heads, int base,
                                           int n, Seg (&s)[kItems]) {
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int i = base + k;
    s[k] = (i < n) ? Seg{heads[i] != 0 ? 1 : 0, values[i]} : Seg{0, 0};
  }
}

__global__ void block_aggregate_kernel(int n, const int* __restrict__ values, const int* __restrict__ heads,
                                       Seg* agg) {
  Seg s[kItems];
  load_items(values, heads, blockIdx.x * kTile + threadIdx.x * kItems, n, s);
  Seg t = s[0];
#pragma unroll
  for (int k = 1; k < kItems; ++k) t = seg_op(t, s[k]);
  Seg total;
  block_seg_scan(t, &total);
  if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

__global__ void block_scan_kernel(int n, const int* __restrict__ values, const int* __restrict__ heads,
                                  const Seg* __restrict__ scanned, int* __restrict__ out) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  Seg s[kItems];
  load_items(values, heads, base, n, s);
#pragma unroll
  for (int k = 1; k < kItems; ++k) s[k] = seg_op(s[k - 1], s[k]);  // in-thread inclusive scan
  Seg total;
  Seg incl = block_seg_scan(s[kItems - 1], &total);
  // Exclusive prefix of this thread within the block: the previous thread's
  // inclusive aggregate (the identity {0, 0} for thread 0).
  __shared__ int pf[kBlock], pv[kBlock];
  pf[threadIdx.x] = incl.f;
  pv[threadIdx.x] = incl.v;
  __syncthreads();
  Seg before = (blockIdx.x > 0) ? scanned[blockIdx.x - 1] : Seg{0, 0};
  if (threadIdx.x > 0) before = seg_op(before, Seg{pf[threadIdx.x - 1], pv[threadIdx.x - 1]});
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (base + k < n) out[base + k] = seg_op(before, s[k]).v;
}

void segmentedInclusiveSum(int n, const int* values, const int* heads, int* out) {
  if (n <= 0) return;
  int nb = (n + kTile - 1) / kTile;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dvals = nullptr, *dheads = nullptr, *dout = nullptr;
  Seg* dagg = nullptr;
  cudaMalloc(&dvals, bytes);
  cudaMalloc(&dheads, bytes);
  cudaMalloc(&dout, bytes);
  cudaMalloc(&dagg, static_cast<size_t>(nb) * sizeof(Seg));
  cudaMemcpy(dvals, values, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dheads, heads, bytes, cudaMemcpyHostToDevice);
  block_aggregate_kernel<<<nb, kBlock>>>(n, dvals, dheads, dagg);
  scan_aggregates_kernel<<<1, kSumBlock>>>(nb, dagg);
  block_scan_kernel<<<nb, kBlock>>>(n, dvals, dheads, dagg, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dvals);
  cudaFree(dheads);
  cudaFree(dout);
  cudaFree(dagg);
}

#include <cuda_runtime.h>

constexpr int kBlock = 256;
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

// Hillis-Steele inclusive scan of one pair per thread in shared memory; the
// earlier operand always goes on the left because the operator is not
// commutative.
__device__ Seg hs_scan(Seg x, int* sf, int* sv) {
  int tid = threadIdx.x;
  sf[tid] = x.f;
  sv[tid] = x.v;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    Seg prev{0, 0};
    bool has = tid >= off;
    if (has) prev = Seg{sf[tid - off], sv[tid - off]};
    __syncthreads();
    if (has) {
      Seg r = seg_op(prev, Seg{sf[tid], sv[tid]});
      sf[tid] = r.f;
      sv[tid] = r.v;
    }
    __syncthreads();
  }
  return Seg{sf[tid], sv[tid]};
}

// Phase 1: the aggregate pair of every 256-element block (the last inclusive value).
__global__ void block_aggregate_kernel(int n, const int* values, const int* heads, Seg* agg) {
  __shared__ int sf[kBlock], sv[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  Seg x{0, 0};
  if (i < n) x = Seg{heads[i] != 0 ? 1 : 0, values[i]};
  Seg r = hs_scan(x, sf, sv);
  if (threadIdx.x == kBlock - 1) agg[blockIdx.x] = r;
}

// Phase 2: inclusive scan of the block aggregates by one block, chunk by chunk.
__global__ void scan_aggregates_kernel(int count, Seg* agg) {
  __shared__ int sf[kSumBlock], sv[kSumBlock];
  Seg carry{0, 0};
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    Seg x = (i < count) ? agg[i] : Seg{0, 0};
    Seg r = hs_scan(x, sf, sv);
    if (i < count) agg[i] = seg_op(carry, r);
    carry = seg_op(carry, Seg{sf[kSumBlock - 1], sv[kSumBlock - 1]});
    __syncthreads();
  }
}

// Phase 3: rescan each block, prefixed by the scanned aggregate of all earlier blocks.
__global__ void block_scan_kernel(int n, const int* values, const int* heads, const Seg* scanned, int* out) {
  __shared__ int sf[kBlock], sv[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  Seg x{0, 0};
  if (i < n) x = Seg{heads[i] != 0 ? 1 : 0, values[i]};
  Seg r = hs_scan(x, sf, sv);
  Seg before = (blockIdx.x > 0) ? scanned[blockIdx.x - 1] : Seg{0, 0};
  if (i < n) out[i] = seg_op(before, r).v;
}

void segmentedInclusiveSum(int n, const int* values, const int* heads, int* out) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
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

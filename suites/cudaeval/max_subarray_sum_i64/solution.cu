#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

constexpr int kThreads = 256;

// Step 2 (algorithmic_restructuring): a segment is summarised by its total,
// best prefix, best suffix and best inner sum (all of non-empty stretches);
// two adjacent segments combine associatively, left then right. `empty`
// marks a segment with no elements (the identity).
struct Seg {
  long long sum, pre, suf, best;
  int empty;
};

__device__ __forceinline__ Seg seg_combine(const Seg& l, const Seg& r) {
  if (l.empty) return r;
  if (r.empty) return l;
  Seg s;
  s.sum = l.sum + r.sum;
  s.pre = max(l.pre, l.sum + r.pre);
  s.suf = max(r.suf, r.sum + l.suf);
  s.best = max(max(l.best, r.best), l.suf + r.pre);
  s.empty = 0;
  return s;
}

__device__ __forceinline__ void seg_push(Seg& s, long long v) {
  if (s.empty) {
    s = Seg{v, v, v, v, 0};
    return;
  }
  s.sum += v;
  s.suf = max(s.suf + v, v);
  s.best = max(s.best, s.suf);
  s.pre = max(s.pre, s.sum);
}

__device__ __forceinline__ Seg seg_shfl_down(const Seg& s, int off) {
  Seg o;
  o.sum = __shfl_down_sync(0xffffffffu, s.sum, off);
  o.pre = __shfl_down_sync(0xffffffffu, s.pre, off);
  o.suf = __shfl_down_sync(0xffffffffu, s.suf, off);
  o.best = __shfl_down_sync(0xffffffffu, s.best, off);
  o.empty = __shfl_down_sync(0xffffffffu, s.empty, off);
  return o;
}

// Step 5 (warp_shuffle_reduction) and Step 6 (block_tree_reduction): the
// threads' segments, in thread order, are combined by shuffles (lane i with
// lane i + off, left then right) and then across warps in shared memory.
__device__ Seg block_combine(Seg s, Seg* warp_segs) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 1; off < 32; off <<= 1) {
    Seg o = seg_shfl_down(s, off);
    if (lane + off < 32 && lane % (2 * off) == 0) s = seg_combine(s, o);
  }
  if (lane == 0) warp_segs[warp] = s;
  __syncthreads();
  for (int h = 1; h < kThreads / 32; h <<= 1) {
    if (threadIdx.x < kThreads / 32 && threadIdx.x % (2 * h) == 0 && threadIdx.x + h < kThreads / 32)
      warp_segs[threadIdx.x] = seg_combine(warp_segs[threadIdx.x], warp_segs[threadIdx.x + h]);
    __syncthreads();
  }
  return warp_segs[0];
}

// Step 1 (thread_mapping) and Step 3 (register_tiling): global thread t owns
// the contiguous chunk [t * chunk, (t + 1) * chunk) and runs Kadane's update
// on it in registers. Step 4 (vectorized_memory_access): chunk is a multiple
// of 4, so the chunk is read as int4 (scalar reads for the ragged end).
// Step 7 (kernel_fusion): the last block to finish (threadfence, then an
// atomic ticket) combines the block segments in block order and writes the
// answer, so no second launch is needed.
__global__ void max_subarray_kernel(int n, long long chunk, const int* __restrict__ a, Seg* __restrict__ block_segs,
                                    unsigned int* ticket, long long* __restrict__ result) {
  __shared__ Seg warp_segs[kThreads / 32];
  __shared__ bool is_last;
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * chunk, end = begin + chunk < n ? begin + chunk : n;
  Seg s{0, 0, 0, 0, 1};
  long long i = begin;
  const int4* a4 = reinterpret_cast<const int4*>(a);
  for (; i + 4 <= end; i += 4) {
    int4 v = a4[i / 4];
    seg_push(s, v.x);
    seg_push(s, v.y);
    seg_push(s, v.z);
    seg_push(s, v.w);
  }
  for (; i < end; ++i) seg_push(s, a[i]);
  Seg b = block_combine(s, warp_segs);
  if (threadIdx.x == 0) {
    block_segs[blockIdx.x] = b;
    __threadfence();
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  // The last block folds the gridDim.x block segments in order: each thread
  // folds a contiguous group, then the groups are combined like above.
  int per = (gridDim.x + kThreads - 1) / kThreads;
  Seg g{0, 0, 0, 0, 1};
  for (int k = threadIdx.x * per; k < (threadIdx.x + 1) * per && k < (int)gridDim.x; ++k) {
    g = seg_combine(g, block_segs[k]);
  }
  __syncthreads();
  Seg all = block_combine(g, warp_segs);
  if (threadIdx.x == 0) *result = all.best;
}

int64_t maxSubarraySum(int n, const int* a) {
  if (n <= 0) return 0;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  // About 64 elements per thread, at most a few blocks per SM.
  long long threads_wanted = ((long long)n + 63) / 64;
  long long blocks = (threads_wanted + kThreads - 1) / kThreads;
  if (blocks > sms * 8) blocks = sms * 8;
  if (blocks < 1) blocks = 1;
  long long total_threads = blocks * kThreads;
  long long chunk = ((long long)n + total_threads - 1) / total_threads;
  chunk = (chunk + 3) / 4 * 4;
  int* da = nullptr;
  Seg* dsegs = nullptr;
  unsigned int* dticket = nullptr;
  long long* dres = nullptr;
  cudaMalloc(&da, (size_t)n * sizeof(int));
  cudaMalloc(&dsegs, (size_t)blocks * sizeof(Seg));
  cudaMalloc(&dticket, sizeof(unsigned int));
  cudaMalloc(&dres, sizeof(long long));
  cudaMemcpy(da, a, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dticket, 0, sizeof(unsigned int));
  max_subarray_kernel<<<(int)blocks, kThreads>>>(n, chunk, da, dsegs, dticket, dres);
  long long best = 0;
  cudaMemcpy(&best, dres, sizeof(best), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(dsegs);
  cudaFree(dticket);
  cudaFree(dres);
  return (int64_t)best;
}

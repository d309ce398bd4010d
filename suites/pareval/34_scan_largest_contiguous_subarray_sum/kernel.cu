#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32); the final value is written to *sum (INT_MIN on entry, not
// relied on). Maximum subarray as an ordered reduction of segment summaries
// (total, best prefix, best suffix, best run), which combine associatively.
// Block b summarises a contiguous chunk of x (ordered warp-shuffle and
// shared-memory combines) and stores it in static device memory; the last
// block to finish (threadfence + atomic counter) combines the chunk summaries
// in order, writes *sum and resets the counter for the next launch.

#define MS_MAX_PARTS 65536

struct MsSeg {
  int sum, pre, suf, best;
};

#define MS_NEG (-(1 << 29))  // "no run yet"; sums of two stay in range

__device__ MsSeg g_ms_part[MS_MAX_PARTS];
__device__ unsigned int g_ms_done = 0;

__device__ __forceinline__ MsSeg ms_identity() { return MsSeg{0, MS_NEG, MS_NEG, MS_NEG}; }

__device__ __forceinline__ MsSeg ms_combine(const MsSeg& a, const MsSeg& b) {
  MsSeg r;
  r.sum = a.sum + b.sum;
  r.pre = max(a.pre, a.sum + b.pre);
  r.suf = max(b.suf, b.sum + a.suf);
  r.best = max(max(a.best, b.best), a.suf + b.pre);
  return r;
}

__device__ __forceinline__ MsSeg ms_shfl_down(const MsSeg& s, int off) {
  MsSeg r;
  r.sum = __shfl_down_sync(0xffffffffu, s.sum, off);
  r.pre = __shfl_down_sync(0xffffffffu, s.pre, off);
  r.suf = __shfl_down_sync(0xffffffffu, s.suf, off);
  r.best = __shfl_down_sync(0xffffffffu, s.best, off);
  return r;
}

// Ordered block reduction (thread i's segment lies left of thread i+1's);
// valid in thread 0. Ends with a barrier so s_warp can be reused.
__device__ MsSeg ms_block_combine(MsSeg v, MsSeg* s_warp) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    MsSeg o = ms_shfl_down(v, off);
    if (lane + off < 32) v = ms_combine(v, o);
  }
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : ms_identity();
    for (int off = 1; off < 32; off <<= 1) {
      MsSeg o = ms_shfl_down(v, off);
      if (lane + off < 32) v = ms_combine(v, o);
    }
  }
  __syncthreads();
  return v;
}

__global__ void maximumSubarray(const int *x, size_t N, int *sum) {
  __shared__ MsSeg s_warp[32];
  __shared__ int s_last;
  const unsigned blocks = gridDim.x;
  const size_t parts = blocks < MS_MAX_PARTS ? blocks : MS_MAX_PARTS;
  const size_t chunk = (N + parts - 1) / parts;

  if (blockIdx.x < parts) {
    // Walk the chunk in rounds of blockDim consecutive values (coalesced).
    const size_t begin = blockIdx.x * chunk;
    const size_t end = begin + chunk < N ? begin + chunk : N;
    MsSeg acc = ms_identity();
    for (size_t r = begin; r < end; r += blockDim.x) {
      size_t i = r + threadIdx.x;
      MsSeg v = ms_identity();
      if (i < end) {
        int xi = x[i];
        v = MsSeg{xi, xi, xi, xi};
      }
      v = ms_block_combine(v, s_warp);
      if (threadIdx.x == 0) acc = ms_combine(acc, v);
    }
    if (threadIdx.x == 0) g_ms_part[blockIdx.x] = acc;
  }

  if (threadIdx.x == 0) {
    __threadfence();
    s_last = atomicAdd(&g_ms_done, 1u) == blocks - 1;
  }
  __syncthreads();
  if (!s_last) return;

  // Last block: combine the chunk summaries in order (each thread a
  // contiguous run of them, then the ordered block combine).
  const size_t per = (parts + blockDim.x - 1) / blockDim.x;
  const size_t first = threadIdx.x * per;
  MsSeg v = ms_identity();
  for (size_t p = first; p < first + per && p < parts; ++p) v = ms_combine(v, g_ms_part[p]);
  v = ms_block_combine(v, s_warp);
  if (threadIdx.x == 0) {
    *sum = N == 0 ? 0 : v.best;
    atomicExch(&g_ms_done, 0u);
  }
}

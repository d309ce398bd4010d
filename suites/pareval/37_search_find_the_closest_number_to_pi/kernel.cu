#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32); the index is written to *closestToPiIndex (its value on
// entry is not used). Arg-min of |x[i] - pi| with ties to the lower index:
// each block reduces its elements (grid-stride, warp shuffles, shared memory)
// to one (distance, index) candidate in static device memory; the last block
// to finish (threadfence + atomic counter) reduces the candidates, writes the
// index and resets the counter for the next launch.

#define CP_MAX_BLOCKS 65536

struct CpCand {
  double d;
  size_t i;
};

__device__ CpCand g_cp_part[CP_MAX_BLOCKS];
__device__ unsigned int g_cp_done = 0;

__device__ __forceinline__ CpCand cp_better(CpCand a, CpCand b) {
  return (b.d < a.d || (b.d == a.d && b.i < a.i)) ? b : a;
}

// Valid in thread 0; ends with a barrier so s_warp can be reused.
__device__ CpCand cp_block_argmin(CpCand c, CpCand* s_warp) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 16; off > 0; off >>= 1) {
    CpCand o{__shfl_down_sync(0xffffffffu, c.d, off), __shfl_down_sync(0xffffffffu, c.i, off)};
    c = cp_better(c, o);
  }
  if (lane == 0) s_warp[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : CpCand{INFINITY, ~(size_t)0};
    for (int off = 16; off > 0; off >>= 1) {
      CpCand o{__shfl_down_sync(0xffffffffu, c.d, off), __shfl_down_sync(0xffffffffu, c.i, off)};
      c = cp_better(c, o);
    }
  }
  __syncthreads();
  return c;
}

__global__ void findClosestToPi(const double *x, size_t N, size_t *closestToPiIndex) {
  __shared__ CpCand s_warp[32];
  __shared__ int s_last;
  const unsigned blocks = gridDim.x;
  const unsigned slots = blocks < CP_MAX_BLOCKS ? blocks : CP_MAX_BLOCKS;

  // Blocks beyond the slot count (only when N is huge) leave the work to the
  // first `slots` blocks, which stride over everything.
  if (blockIdx.x < slots) {
    CpCand c{INFINITY, ~(size_t)0};
    const size_t stride = (size_t)slots * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
      double d = fabs(x[i] - M_PI);
      if (d < c.d) c = CpCand{d, i};  // i increases, so ties keep the earlier index
    }
    c = cp_block_argmin(c, s_warp);
    if (threadIdx.x == 0) g_cp_part[blockIdx.x] = c;
  }
  if (threadIdx.x == 0) {
    __threadfence();
    s_last = atomicAdd(&g_cp_done, 1u) == blocks - 1;
  }
  __syncthreads();
  if (!s_last) return;

  CpCand c{INFINITY, ~(size_t)0};
  for (unsigned b = threadIdx.x; b < slots; b += blockDim.x) c = cp_better(c, g_cp_part[b]);
  c = cp_block_argmin(c, s_warp);
  if (threadIdx.x == 0) {
    *closestToPiIndex = c.i == ~(size_t)0 ? 0 : c.i;
    atomicExch(&g_cp_done, 0u);
  }
}

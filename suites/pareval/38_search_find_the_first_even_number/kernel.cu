#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32); the answer is written to *firstEvenIndex (N when x has no
// even value); its value on entry is not relied on. Each thread walks its
// grid-stride sequence and stops at its first even value; warp shuffles and
// shared memory leave one candidate per block, which an atomicMin folds into
// a static device slot. The last block to finish (threadfence + atomic
// counter) writes the slot to *firstEvenIndex and resets the slot and the
// counter for the next launch.

__device__ unsigned long long g_fe_best = ~0ull;
__device__ unsigned int g_fe_done = 0;

__global__ void findFirstEven(const int *x, size_t N, size_t *firstEvenIndex) {
  __shared__ unsigned long long s_warp[32];
  __shared__ int s_last;
  unsigned long long best = N;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
    if ((x[i] & 1) == 0) {
      best = i;  // later elements of this thread have larger indices
      break;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    unsigned long long o = __shfl_down_sync(0xffffffffu, best, off);
    best = o < best ? o : best;
  }
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) s_warp[warp] = best;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < (blockDim.x >> 5); ++w) best = s_warp[w] < best ? s_warp[w] : best;
    if (best < N) atomicMin(&g_fe_best, best);
    __threadfence();
    s_last = atomicAdd(&g_fe_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
    if (s_last) {
      unsigned long long b = atomicExch(&g_fe_best, ~0ull);
      *firstEvenIndex = b < N ? (size_t)b : N;
      atomicExch(&g_fe_done, 0u);
    }
  }
}

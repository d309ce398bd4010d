#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads; x and y both hold N values;
// the answer is written to *found (false on entry, not relied on). Each block
// checks its elements of x and y (grid-stride) and combines its threads with
// __syncthreads_or; thread 0 ORs "seen in x" (bit 0) and "seen in y" (bit 1)
// into a static device word. The last block to finish (threadfence + atomic
// counter) reads and clears the word, writes *found = exactly one bit set,
// and resets the counter for the next launch.

__device__ unsigned int g_xc_bits = 0;
__device__ unsigned int g_xc_done = 0;

__global__ void xorContains(const int *x, const int *y, size_t N, int val, bool *found) {
  bool inx = false, iny = false;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
    inx |= (x[i] == val);
    iny |= (y[i] == val);
  }
  const int bx = __syncthreads_or(inx);
  const int by = __syncthreads_or(iny);
  if (threadIdx.x == 0) {
    unsigned bits = (bx ? 1u : 0u) | (by ? 2u : 0u);
    if (bits) atomicOr(&g_xc_bits, bits);
    __threadfence();
    if (atomicAdd(&g_xc_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1) {
      unsigned all = atomicExch(&g_xc_bits, 0u);
      *found = (all == 1u || all == 2u);
      atomicExch(&g_xc_done, 0u);
    }
  }
}

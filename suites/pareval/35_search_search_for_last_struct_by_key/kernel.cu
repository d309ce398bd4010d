#include <cuda_runtime.h>
#include <cstddef>

struct Book {
   const char* title;
   int pages;
};

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32); the answer is written to *lastShortBookIndex (N when no
// book has fewer than 100 pages); its value on entry is not relied on. Each
// thread keeps the largest qualifying index of its grid-stride sequence,
// warp shuffles and shared memory reduce it per block, and one atomicMax per
// block folds it into a static device slot (-1 = none). The last block to
// finish (threadfence + atomic counter) writes the answer and resets the
// slot and the counter for the next launch.

__device__ long long g_ls_best = -1;
__device__ unsigned int g_ls_done = 0;

__global__ void findLastShortBook(const Book *books, size_t N, size_t *lastShortBookIndex) {
  __shared__ long long s_warp[32];
  long long best = -1;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
    if (books[i].pages < 100) best = (long long)i;
  }
  for (int off = 16; off > 0; off >>= 1) {
    long long o = __shfl_down_sync(0xffffffffu, best, off);
    best = o > best ? o : best;
  }
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) s_warp[warp] = best;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < (blockDim.x >> 5); ++w) best = s_warp[w] > best ? s_warp[w] : best;
    if (best >= 0) atomicMax(&g_ls_best, best);
    __threadfence();
    if (atomicAdd(&g_ls_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1) {
      long long b = atomicExch((unsigned long long*)&g_ls_best, (unsigned long long)-1ll);
      *lastShortBookIndex = b >= 0 ? (size_t)b : N;
      atomicExch(&g_ls_done, 0u);
    }
  }
}

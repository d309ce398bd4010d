#include <climits>

// Kernel form: one thread per element, a single launch. Even elements (and threads past N)
// contribute INT_MAX; each block takes its minimum with warp shuffles and one atomicMin per
// block folds it into *smallest (INT_MAX on entry, so it stays INT_MAX when nothing is odd).
__global__ void smallestOdd(const int *x, size_t N, int *smallest) {
  __shared__ int warp_min[32];
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int m = INT_MAX;
  if (i < N && (x[i] & 1)) m = x[i];
  for (int off = 16; off > 0; off >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, off));
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_min[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = (lane < (int)((blockDim.x + 31) >> 5)) ? warp_min[lane] : INT_MAX;
    for (int off = 16; off > 0; off >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, off));
    if (lane == 0 && m != INT_MAX) atomicMin(smallest, m);
  }
}

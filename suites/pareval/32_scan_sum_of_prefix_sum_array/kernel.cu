#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads; *sum holds 0 on entry.
// The sum of all inclusive prefix sums is sum_i x[i] * (N - i) (x[i] appears
// in the prefixes i, ..., N-1), so each thread forms its weighted terms
// (grid-stride, in case fewer threads are launched), each warp reduces with
// shuffles, each block combines its warps in shared memory, and one atomicAdd
// per block accumulates into *sum.

__global__ void sumOfPrefixSum(const double *x, size_t N, double *sum) {
  __shared__ double s_warp[32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  double v = 0.0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < N; i += stride) {
    v += x[i] * (double)(N - i);
  }
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < ((blockDim.x + 31) >> 5) ? s_warp[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(sum, v);
  }
}

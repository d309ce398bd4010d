#include <cfloat>
#include <cstddef>

__device__ double distanceBetweenPoints(double x1, double x2) {
  return fabs(x1 - x2);
}

// One thread per element (block-uniform grid stride), all partners streamed through shared
// memory in tiles. Block minimum by warp shuffles, then one 64-bit atomicMin on the bit
// pattern (distances are >= 0, and non-negative doubles order like their bits). *distance
// starts at DBL_MAX, which is also the answer for N < 2.
constexpr int kMaxBlock = 1024;

__global__ void closestPair(const double *x, size_t N, double *distance) {
  __shared__ double tile[kMaxBlock];
  __shared__ double warpMin[32];
  const size_t bs = blockDim.x;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  double best = DBL_MAX;
  for (size_t first = (size_t)blockIdx.x * bs; first < N; first += (size_t)gridDim.x * bs) {
    const size_t i = first + threadIdx.x;
    const double xi = i < N ? x[i] : 0.0;
    for (size_t base = 0; base < N; base += bs) {
      const size_t j = base + threadIdx.x;
      if (j < N) tile[threadIdx.x] = x[j];
      __syncthreads();
      const size_t m = N - base < bs ? N - base : bs;
      if (i < N) {
        for (size_t t = 0; t < m; ++t) {
          double d = distanceBetweenPoints(xi, tile[t]);
          if (base + t != i) best = fmin(best, d);
        }
      }
      __syncthreads();
    }
  }
  for (int off = 16; off > 0; off >>= 1) best = fmin(best, __shfl_down_sync(0xffffffffu, best, off));
  if (lane == 0) warpMin[warp] = best;
  __syncthreads();
  if (warp == 0) {
    best = lane < ((blockDim.x + 31) >> 5) ? warpMin[lane] : DBL_MAX;
    for (int off = 16; off > 0; off >>= 1) best = fmin(best, __shfl_down_sync(0xffffffffu, best, off));
    if (lane == 0 && best < DBL_MAX)
      atomicMin(reinterpret_cast<unsigned long long*>(distance), (unsigned long long)__double_as_longlong(best));
  }
}

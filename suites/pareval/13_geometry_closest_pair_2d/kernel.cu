#include <cfloat>
#include <cstddef>

struct Point {
  double x, y;
};

__device__ double distanceBetweenPoints(Point const& p1, Point const& p2) {
  return sqrt(pow(p2.x - p1.x, 2) + pow(p2.y - p1.y, 2));
}

// One thread per point (block-uniform grid stride), all partners streamed through shared
// memory in tiles; squared distances are compared, one sqrt per thread at the end. Block
// minimum by warp shuffles, then one 64-bit atomicMin on the bit pattern (distances are >= 0,
// and non-negative doubles order like their bits). *distance starts at DBL_MAX, which is also
// the answer for fewer than 2 points.
constexpr int kMaxBlock = 1024;

__global__ void closestPair(const Point *points, size_t numPoints, double *distance) {
  __shared__ double tx[kMaxBlock], ty[kMaxBlock];
  __shared__ double warpMin[32];
  const size_t bs = blockDim.x;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  double best2 = DBL_MAX;
  for (size_t first = (size_t)blockIdx.x * bs; first < numPoints; first += (size_t)gridDim.x * bs) {
    const size_t i = first + threadIdx.x;
    double px = 0.0, py = 0.0;
    if (i < numPoints) { px = points[i].x; py = points[i].y; }
    for (size_t base = 0; base < numPoints; base += bs) {
      const size_t j = base + threadIdx.x;
      if (j < numPoints) { tx[threadIdx.x] = points[j].x; ty[threadIdx.x] = points[j].y; }
      __syncthreads();
      const size_t m = numPoints - base < bs ? numPoints - base : bs;
      if (i < numPoints) {
        for (size_t t = 0; t < m; ++t) {
          double dx = tx[t] - px, dy = ty[t] - py;
          double d2 = dx * dx + dy * dy;
          if (base + t != i) best2 = fmin(best2, d2);
        }
      }
      __syncthreads();
    }
  }
  double best = best2 < DBL_MAX ? sqrt(best2) : DBL_MAX;
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

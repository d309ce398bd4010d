#include <cuda_runtime.h>
#include <cfloat>
#include <vector>

struct Point {
  double x, y;
};

// One thread per pair (i, j), i < j (x indexes j, y strides over i), scanning every k > j, so each
// triple is seen once. Neighbouring threads read neighbouring points (coalesced, cached).
// Areas are non-negative, so their IEEE bit patterns order like the values: the block's
// minimum is combined with a 64-bit integer atomicMin.
constexpr int kBlock = 128;

__device__ __forceinline__ double area2(double ax, double ay, double bx, double by, double cx,
                                        double cy) {
  return fabs(ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
}

__global__ void minTriangle(const Point* __restrict__ pts, int n,
                            unsigned long long* __restrict__ best) {
  const int j = blockIdx.x * kBlock + threadIdx.x;
  double m = DBL_MAX;
  for (int i = blockIdx.y; i < n - 2; i += gridDim.y) {  // block-uniform
    if (blockIdx.x * kBlock + kBlock - 1 <= i) break;      // rest of the column is below the diagonal
    if (j > i && j < n) {
      const double ax = pts[i].x, ay = pts[i].y, bx = pts[j].x, by = pts[j].y;
      double m2 = DBL_MAX;
      for (int k = j + 1; k < n; ++k) m2 = fmin(m2, area2(ax, ay, bx, by, pts[k].x, pts[k].y));
      if (m2 < DBL_MAX) m = fmin(m, 0.5 * m2);
    }
  }
  for (int off = 16; off > 0; off >>= 1) m = fmin(m, __shfl_down_sync(0xffffffffu, m, off));
  __shared__ double warpMin[kBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warpMin[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < kBlock / 32 ? warpMin[lane] : DBL_MAX;
    for (int off = 16; off > 0; off >>= 1) m = fmin(m, __shfl_down_sync(0xffffffffu, m, off));
    if (lane == 0 && m < DBL_MAX) atomicMin(best, (unsigned long long)__double_as_longlong(m));
  }
}

double smallestArea(std::vector<Point> const& points) {
  const int n = (int)points.size();
  double result = DBL_MAX;
  if (n < 3) return result;
  Point* dPts = nullptr;
  unsigned long long* dBest = nullptr;
  cudaMalloc(&dPts, n * sizeof(Point));
  cudaMalloc(&dBest, sizeof(unsigned long long));
  cudaMemcpy(dPts, points.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemcpy(dBest, &result, sizeof(double), cudaMemcpyHostToDevice);
  dim3 grid((n + kBlock - 1) / kBlock, n - 2 < 65535 ? n - 2 : 65535);
  minTriangle<<<grid, kBlock>>>(dPts, n, dBest);
  cudaMemcpy(&result, dBest, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dPts);
  cudaFree(dBest);
  return result;
}

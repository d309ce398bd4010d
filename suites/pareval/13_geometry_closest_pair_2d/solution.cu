#include <cuda_runtime.h>
#include <cfloat>
#include <vector>

struct Point {
  double x, y;
};

// Thread i owns point i; blockIdx.y picks a slice of the partner range, streamed through
// shared memory in tiles. Squared distances are compared (sqrt once at the end); each block
// reduces with warp shuffles and combines with a 64-bit atomicMin on the (non-negative)
// value's bit pattern.
constexpr int kBlock = 256;
constexpr int kSlices = 16;

__global__ void closestKernel(const Point* __restrict__ pts, int n,
                              unsigned long long* __restrict__ best) {
  __shared__ double tx[kBlock], ty[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const int per = (n + gridDim.y - 1) / gridDim.y;
  const int lo = blockIdx.y * per, hi = min(n, lo + per);
  double px = 0.0, py = 0.0;
  if (i < n) { px = pts[i].x; py = pts[i].y; }
  double m = DBL_MAX;
  for (int base = lo; base < hi; base += kBlock) {
    int j = base + threadIdx.x;
    if (j < hi) { tx[threadIdx.x] = pts[j].x; ty[threadIdx.x] = pts[j].y; }
    __syncthreads();
    int cnt = min(kBlock, hi - base);
    if (i < n) {
      for (int t = 0; t < cnt; ++t) {
        double dx = tx[t] - px, dy = ty[t] - py;
        double d = dx * dx + dy * dy;
        if (base + t != i) m = fmin(m, d);
      }
    }
    __syncthreads();
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

__global__ void finishSqrt(unsigned long long* best) {
  double m = __longlong_as_double((long long)*best);
  if (m < DBL_MAX) *best = (unsigned long long)__double_as_longlong(sqrt(m));
}

double closestPair(std::vector<Point> const& points) {
  const int n = (int)points.size();
  double result = DBL_MAX;
  if (n < 2) return result;
  Point* dPts = nullptr;
  unsigned long long* dBest = nullptr;
  cudaMalloc(&dPts, n * sizeof(Point));
  cudaMalloc(&dBest, sizeof(unsigned long long));
  cudaMemcpy(dPts, points.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemcpy(dBest, &result, sizeof(double), cudaMemcpyHostToDevice);
  int slices = n < 4096 ? 1 + n / 512 : kSlices;
  dim3 grid((n + kBlock - 1) / kBlock, slices);
  closestKernel<<<grid, kBlock>>>(dPts, n, dBest);
  finishSqrt<<<1, 1>>>(dBest);
  cudaMemcpy(&result, dBest, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dPts);
  cudaFree(dBest);
  return result;
}

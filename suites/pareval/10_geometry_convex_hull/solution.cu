#include <cuda_runtime.h>
#include <vector>

struct Point {
  double x, y;
};

// A point p is a strict hull corner exactly when the directions from p to every other
// point fit in an open half-plane (their angular span is below pi). Each thread keeps the
// two boundary directions (R clockwise-most, L counter-clockwise-most) of that cone and
// gives up as soon as the span would reach pi: interior points usually stop after a few
// tiles. A repeated location counts once: only its lowest-index copy can be a corner.
struct Cone {
  double Rx, Ry, Lx, Ly;
  bool have;
};

// Returns false when p cannot be a corner.
__device__ __forceinline__ bool coneAdd(Cone& c, double vx, double vy, bool lowerDuplicate) {
  if (vx == 0.0 && vy == 0.0) return !lowerDuplicate;
  if (!c.have) {
    c.Rx = c.Lx = vx;
    c.Ry = c.Ly = vy;
    c.have = true;
    return true;
  }
  double cR = c.Rx * vy - c.Ry * vx;  // > 0: v counter-clockwise of R
  double cL = vx * c.Ly - vy * c.Lx;  // > 0: v clockwise of L
  if (cR == 0.0 && c.Rx * vx + c.Ry * vy < 0.0) return false;  // opposite R
  if (cL == 0.0 && c.Lx * vx + c.Ly * vy < 0.0) return false;  // opposite L
  if (cR >= 0.0 && cL >= 0.0) return true;                      // inside the cone
  if (cR > 0.0) { c.Lx = vx; c.Ly = vy; return true; }
  if (cL > 0.0) { c.Rx = vx; c.Ry = vy; return true; }
  return false;
}

constexpr int kBlock = 256;

__global__ void hullCorners(const Point* __restrict__ pts, int n, Point* __restrict__ out,
                            int* __restrict__ count) {
  __shared__ double tx[kBlock], ty[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  bool alive = i < n;
  double px = 0.0, py = 0.0;
  if (alive) { px = pts[i].x; py = pts[i].y; }
  Cone c;
  c.have = false;
  c.Rx = c.Ry = c.Lx = c.Ly = 0.0;
  for (int base = 0; base < n; base += kBlock) {
    if (!__syncthreads_or(alive)) break;  // every point of this block is settled
    int j = base + threadIdx.x;
    if (j < n) { tx[threadIdx.x] = pts[j].x; ty[threadIdx.x] = pts[j].y; }
    __syncthreads();
    int m = min(kBlock, n - base);
    if (alive) {
      for (int t = 0; t < m; ++t) {
        int jj = base + t;
        if (jj == i) continue;
        if (!coneAdd(c, tx[t] - px, ty[t] - py, jj < i)) { alive = false; break; }
      }
    }
  }
  if (alive) {
    int slot = atomicAdd(count, 1);
    out[slot].x = px;
    out[slot].y = py;
  }
}

void convexHull(std::vector<Point> const& points, std::vector<Point> &hull) {
  const int n = (int)points.size();
  hull.clear();
  if (n == 0) return;
  Point *dPts = nullptr, *dOut = nullptr;
  int* dCount = nullptr;
  cudaMalloc(&dPts, n * sizeof(Point));
  cudaMalloc(&dOut, n * sizeof(Point));
  cudaMalloc(&dCount, sizeof(int));
  cudaMemcpy(dPts, points.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemset(dCount, 0, sizeof(int));
  hullCorners<<<(n + kBlock - 1) / kBlock, kBlock>>>(dPts, n, dOut, dCount);
  int h = 0;
  cudaMemcpy(&h, dCount, sizeof(int), cudaMemcpyDeviceToHost);
  hull.resize(h);
  if (h > 0) cudaMemcpy(hull.data(), dOut, h * sizeof(Point), cudaMemcpyDeviceToHost);
  cudaFree(dPts);
  cudaFree(dOut);
  cudaFree(dCount);
}

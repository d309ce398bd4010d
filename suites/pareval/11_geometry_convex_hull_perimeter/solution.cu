#include <cuda_runtime.h>
#include <vector>

struct Point {
  double x, y;
};

// Step 1 (one thread per point, points tiled through shared memory): p is a strict hull
// corner exactly when the directions to all other points fit in a cone narrower than pi.
// Corners are appended to a list. Step 2 (one warp per corner): the corner's clockwise
// neighbour is the point whose direction is clockwise-most (ties: farthest); the warp
// reduces that choice with shuffles and adds the edge length to the perimeter.
struct Cone {
  double Rx, Ry, Lx, Ly;
  bool have;
};

__device__ __forceinline__ bool coneAdd(Cone& c, double vx, double vy, bool lowerDuplicate) {
  if (vx == 0.0 && vy == 0.0) return !lowerDuplicate;
  if (!c.have) {
    c.Rx = c.Lx = vx;
    c.Ry = c.Ly = vy;
    c.have = true;
    return true;
  }
  double cR = c.Rx * vy - c.Ry * vx;
  double cL = vx * c.Ly - vy * c.Lx;
  if (cR == 0.0 && c.Rx * vx + c.Ry * vy < 0.0) return false;
  if (cL == 0.0 && c.Lx * vx + c.Ly * vy < 0.0) return false;
  if (cR >= 0.0 && cL >= 0.0) return true;
  if (cR > 0.0) { c.Lx = vx; c.Ly = vy; return true; }
  if (cL > 0.0) { c.Rx = vx; c.Ry = vy; return true; }
  return false;
}

constexpr int kBlock = 256;

__global__ void hullCorners(const Point* __restrict__ pts, int n, int* __restrict__ corners,
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
    if (!__syncthreads_or(alive)) break;
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
  if (alive) corners[atomicAdd(count, 1)] = i;
}

// true when direction (bx, by) should replace (ax, ay) as the clockwise-most one.
__device__ __forceinline__ bool better(double bx, double by, double ax, double ay) {
  double c = ax * by - ay * bx;
  return c < 0.0 || (c == 0.0 && bx * bx + by * by > ax * ax + ay * ay);
}

__global__ void hullEdges(const Point* __restrict__ pts, int n, const int* __restrict__ corners,
                          const int* __restrict__ count, double* __restrict__ perimeter) {
  const int lane = threadIdx.x & 31;
  const int nWarps = (gridDim.x * blockDim.x) >> 5;
  const int h = *count;
  for (int k = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; k < h; k += nWarps) {  // warp-uniform
    const Point p = pts[corners[k]];
    bool have = false;
    double bx = 0.0, by = 0.0;
    for (int j = lane; j < n; j += 32) {
      double vx = pts[j].x - p.x, vy = pts[j].y - p.y;
      if (vx == 0.0 && vy == 0.0) continue;
      if (!have || better(vx, vy, bx, by)) { bx = vx; by = vy; have = true; }
    }
    for (int off = 16; off > 0; off >>= 1) {
      double ox = __shfl_down_sync(0xffffffffu, bx, off);
      double oy = __shfl_down_sync(0xffffffffu, by, off);
      bool oh = __shfl_down_sync(0xffffffffu, have, off);
      if (oh && (!have || better(ox, oy, bx, by))) { bx = ox; by = oy; have = true; }
    }
    if (lane == 0 && have) atomicAdd(perimeter, sqrt(bx * bx + by * by));
  }
}

double convexHullPerimeter(std::vector<Point> const& points) {
  const int n = (int)points.size();
  if (n == 0) return 0.0;
  Point* dPts = nullptr;
  int *dCorners = nullptr, *dCount = nullptr;
  double* dPerim = nullptr;
  cudaMalloc(&dPts, n * sizeof(Point));
  cudaMalloc(&dCorners, n * sizeof(int));
  cudaMalloc(&dCount, sizeof(int));
  cudaMalloc(&dPerim, sizeof(double));
  cudaMemcpy(dPts, points.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemset(dCount, 0, sizeof(int));
  cudaMemset(dPerim, 0, sizeof(double));
  hullCorners<<<(n + kBlock - 1) / kBlock, kBlock>>>(dPts, n, dCorners, dCount);
  // One warp per corner, grid-stride over the corner list (its length stays on the device).
  int blocks = (n + 7) / 8;
  if (blocks > 132) blocks = 132;
  hullEdges<<<blocks, 256>>>(dPts, n, dCorners, dCount, dPerim);
  double result = 0.0;
  cudaMemcpy(&result, dPerim, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dPts);
  cudaFree(dCorners);
  cudaFree(dCount);
  cudaFree(dPerim);
  return result;
}

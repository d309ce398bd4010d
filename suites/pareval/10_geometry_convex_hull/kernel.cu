#include <cstddef>

struct Point {
  double x, y;
};

// One thread per point, points streamed through shared memory in tiles. Point p is a strict
// hull corner exactly when the directions from p to all other points fit in a cone narrower
// than pi; the thread keeps the cone's two boundary directions (R clockwise-most, L
// counter-clockwise-most) and stops as soon as the span would reach pi (interior points stop
// early; a block stops loading tiles once all its points are settled). A repeated location
// counts once (only its lowest-index copy can be a corner). Corner i is stored in hull[i]:
// slots of non-corners keep the harness's fill value, so no counter or compaction is needed.
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
  double cR = c.Rx * vy - c.Ry * vx;  // > 0: v counter-clockwise of R
  double cL = vx * c.Ly - vy * c.Lx;  // > 0: v clockwise of L
  if (cR == 0.0 && c.Rx * vx + c.Ry * vy < 0.0) return false;  // opposite R: span pi
  if (cL == 0.0 && c.Lx * vx + c.Ly * vy < 0.0) return false;  // opposite L: span pi
  if (cR >= 0.0 && cL >= 0.0) return true;                      // inside the cone
  if (cR > 0.0) { c.Lx = vx; c.Ly = vy; return true; }
  if (cL > 0.0) { c.Rx = vx; c.Ry = vy; return true; }
  return false;
}

constexpr int kMaxBlock = 1024;

__global__ void convexHull(const Point *points, size_t numPoints, Point *hull, size_t hullSize) {
  __shared__ double tx[kMaxBlock], ty[kMaxBlock];
  const size_t bs = blockDim.x;
  for (size_t first = (size_t)blockIdx.x * bs; first < numPoints; first += (size_t)gridDim.x * bs) {
    const size_t i = first + threadIdx.x;
    bool alive = i < numPoints;
    double px = 0.0, py = 0.0;
    if (alive) { px = points[i].x; py = points[i].y; }
    Cone c;
    c.have = false;
    c.Rx = c.Ry = c.Lx = c.Ly = 0.0;
    for (size_t base = 0; base < numPoints; base += bs) {
      if (!__syncthreads_or(alive)) break;  // block-uniform
      const size_t j = base + threadIdx.x;
      if (j < numPoints) { tx[threadIdx.x] = points[j].x; ty[threadIdx.x] = points[j].y; }
      __syncthreads();
      const size_t m = numPoints - base < bs ? numPoints - base : bs;
      if (alive) {
        for (size_t t = 0; t < m; ++t) {
          const size_t jj = base + t;
          if (jj == i) continue;
          if (!coneAdd(c, tx[t] - px, ty[t] - py, jj < i)) { alive = false; break; }
        }
      }
    }
    if (alive && i < hullSize) {
      hull[i].x = px;
      hull[i].y = py;
    }
    __syncthreads();  // the tile is reused by the next round
  }
}

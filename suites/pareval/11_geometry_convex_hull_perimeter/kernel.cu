#include <cstddef>

struct Point {
  double x, y;
};

__device__ double distance(Point const& p1, Point const& p2) {
  double dx = p2.x - p1.x, dy = p2.y - p1.y;
  return sqrt(dx * dx + dy * dy);
}

// One thread per point, points streamed through shared memory in tiles.
// Pass 1: point p is a strict hull corner exactly when the directions from p to all other
// points fit in a cone narrower than pi (the thread keeps the cone's boundary directions and
// stops once the span would reach pi; a repeated location counts once, by its lowest index).
// Pass 2 (only blocks holding a corner): each corner finds its clockwise neighbour, the point
// whose direction is clockwise-most (ties: farthest), and adds the edge length with one
// atomicAdd. Every hull edge is counted exactly once, by its first corner.
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

constexpr int kMaxBlock = 1024;

__global__ void convexHullPerimeter(const Point *points, size_t numPoints, double *perimeter) {
  __shared__ double tx[kMaxBlock], ty[kMaxBlock];
  const size_t bs = blockDim.x;
  for (size_t first = (size_t)blockIdx.x * bs; first < numPoints; first += (size_t)gridDim.x * bs) {
    const size_t i = first + threadIdx.x;
    bool corner = i < numPoints;
    Point p = {0.0, 0.0};
    if (corner) p = points[i];
    Cone c;
    c.have = false;
    c.Rx = c.Ry = c.Lx = c.Ly = 0.0;
    for (size_t base = 0; base < numPoints; base += bs) {
      if (!__syncthreads_or(corner)) break;  // block-uniform
      const size_t j = base + threadIdx.x;
      if (j < numPoints) { tx[threadIdx.x] = points[j].x; ty[threadIdx.x] = points[j].y; }
      __syncthreads();
      const size_t m = numPoints - base < bs ? numPoints - base : bs;
      if (corner) {
        for (size_t t = 0; t < m; ++t) {
          const size_t jj = base + t;
          if (jj == i) continue;
          if (!coneAdd(c, tx[t] - p.x, ty[t] - p.y, jj < i)) { corner = false; break; }
        }
      }
    }
    // Pass 2: clockwise neighbour of each corner.
    bool have = false;
    double bx = 0.0, by = 0.0;  // direction to the best neighbour so far
    Point q = {0.0, 0.0};       // that neighbour
    for (size_t base = 0; base < numPoints; base += bs) {
      if (!__syncthreads_or(corner)) break;  // block-uniform; skips blocks with no corner
      const size_t j = base + threadIdx.x;
      if (j < numPoints) { tx[threadIdx.x] = points[j].x; ty[threadIdx.x] = points[j].y; }
      __syncthreads();
      const size_t m = numPoints - base < bs ? numPoints - base : bs;
      if (corner) {
        for (size_t t = 0; t < m; ++t) {
          double vx = tx[t] - p.x, vy = ty[t] - p.y;
          if (vx == 0.0 && vy == 0.0) continue;
          double cr = bx * vy - by * vx;
          if (!have || cr < 0.0 || (cr == 0.0 && vx * vx + vy * vy > bx * bx + by * by)) {
            bx = vx;
            by = vy;
            q.x = tx[t];
            q.y = ty[t];
            have = true;
          }
        }
      }
    }
    if (corner && have) atomicAdd(perimeter, distance(p, q));
    __syncthreads();  // the tile is reused by the next round
  }
}

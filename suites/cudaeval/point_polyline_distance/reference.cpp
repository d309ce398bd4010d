#include <cmath>

// Distance from each query point to a polyline (a road, a coastline, a GPS
// track) of nv >= 1 vertices (vx[k], vy[k]) joined by nv - 1 segments: the
// minimum over the segments of the Euclidean distance to the closest point
// of the segment (a single vertex counts as a zero-length segment). For the
// segment a -> b the closest point is a + t (b - a) with t the projection
// parameter clamped to [0, 1] (t = 0 when a == b).
void pointPolylineDistance(const float* qx, const float* qy, int nq, const float* vx, const float* vy, int nv,
                           float* dist) {
  for (int q = 0; q < nq; ++q) {
    float best = INFINITY;
    int segments = nv > 1 ? nv - 1 : 1;
    for (int s = 0; s < segments; ++s) {
      int e = nv > 1 ? s + 1 : s;
      float ax = vx[s], ay = vy[s];
      float dx = vx[e] - ax, dy = vy[e] - ay;
      float len2 = dx * dx + dy * dy;
      float t = 0.0f;
      if (len2 > 0.0f) {
        t = ((qx[q] - ax) * dx + (qy[q] - ay) * dy) / len2;
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
      }
      float cx = ax + t * dx - qx[q];
      float cy = ay + t * dy - qy[q];
      float d = std::sqrt(cx * cx + cy * cy);
      if (d < best) best = d;
    }
    dist[q] = best;
  }
}

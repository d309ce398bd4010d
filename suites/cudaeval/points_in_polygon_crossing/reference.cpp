#include <cstdint>

// Point-in-polygon test by the crossing-number (even-odd) rule, the loop GIS
// and graphics code run to classify points against a region: a horizontal
// ray from each point crosses the edge (i, j) when the edge straddles the
// point's y ((yi > py) != (yj > py)) and the point lies left of the
// crossing, px < (xj - xi) * (py - yi) / (yj - yi) + xi (float arithmetic in
// exactly this order); an odd number of crossings means inside (1), even
// outside (0). The polygon has nv >= 1 vertices (vx[k], vy[k]), closed from
// the last vertex back to the first; np >= 0 points.
void pointsInPolygon(const float* px, const float* py, int np, const float* vx, const float* vy, int nv,
                     uint8_t* inside) {
  for (int p = 0; p < np; ++p) {
    bool in = false;
    for (int i = 0, j = nv - 1; i < nv; j = i++) {
      if ((vy[i] > py[p]) != (vy[j] > py[p]) &&
          px[p] < (vx[j] - vx[i]) * (py[p] - vy[i]) / (vy[j] - vy[i]) + vx[i]) {
        in = !in;
      }
    }
    inside[p] = in ? 1 : 0;
  }
}

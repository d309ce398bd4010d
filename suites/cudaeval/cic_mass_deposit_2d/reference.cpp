#include <cmath>

// Cloud-in-cell mass assignment of a particle-mesh (PM) gravity or plasma
// code: each particle's mass is shared between the four nearest cell centres
// of a periodic G x G grid (positions in grid units, cell centres at
// integer + 0.5) with bilinear weights, and rho (row-major, G*G) receives the
// sums. With x = px - 0.5, ix = floor(x), dx = x - ix (likewise y), the
// particle adds m (1-dx)(1-dy) to cell (ix, iy), m dx (1-dy) to (ix+1, iy),
// m (1-dx) dy to (ix, iy+1) and m dx dy to (ix+1, iy+1), indices wrapped
// periodically. Positions normally lie in [0, G] (others wrap periodically
// too); float accumulation in particle order.
void cicDeposit(int n, const float* px, const float* py, const float* mass, int G, float* rho) {
  for (int c = 0; c < G * G; ++c) rho[c] = 0.0f;
  for (int p = 0; p < n; ++p) {
    float x = px[p] - 0.5f, y = py[p] - 0.5f;
    float fx = std::floor(x), fy = std::floor(y);
    float dx = x - fx, dy = y - fy;
    int ix0 = ((static_cast<int>(fx) % G) + G) % G, iy0 = ((static_cast<int>(fy) % G) + G) % G;
    int ix1 = ix0 + 1 == G ? 0 : ix0 + 1, iy1 = iy0 + 1 == G ? 0 : iy0 + 1;
    float m = mass[p];
    rho[iy0 * G + ix0] += m * (1.0f - dx) * (1.0f - dy);
    rho[iy0 * G + ix1] += m * dx * (1.0f - dy);
    rho[iy1 * G + ix0] += m * (1.0f - dx) * dy;
    rho[iy1 * G + ix1] += m * dx * dy;
  }
}

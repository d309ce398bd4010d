#include <cmath>

struct Charge {
  float x, y, q;
};

// Softened Coulomb potential of nc point charges on an nx x ny grid of points
// (ix * spacing, iy * spacing): phi[iy * nx + ix] = sum over charges of
// q / sqrt(dx^2 + dy^2 + 1e-4). Units with the Coulomb constant set to 1.
void coulomb_potential_grid(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  const float soft2 = 1e-4f;
  for (int iy = 0; iy < ny; ++iy) {
    for (int ix = 0; ix < nx; ++ix) {
      float gx = ix * spacing, gy = iy * spacing;
      float s = 0.0f;
      for (int c = 0; c < nc; ++c) {
        float dx = gx - charges[c].x;
        float dy = gy - charges[c].y;
        s += charges[c].q / std::sqrt(dx * dx + dy * dy + soft2);
      }
      phi[iy * nx + ix] = s;
    }
  }
}

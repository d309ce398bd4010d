#include <cstddef>
#include <vector>

struct Vec3d {
  double x, y, z;
};

// Lennard-Jones forces with a plain cutoff (no shift), evaluated over all
// pairs: particle j contributes to particle i only when their squared
// distance r2 is below cutoff^2. With s = sigma^2 / r2, the pair force on i is
//   24 * epsilon * s^3 * (2 s^3 - 1) / r2 * (r_i - r_j).
// No periodic images; n is a few thousand.
void lennardJonesCutoffForces(std::vector<Vec3d> const& positions, std::vector<Vec3d>& forces, double epsilon,
                              double sigma, double cutoff) {
  const size_t n = positions.size();
  const double rc2 = cutoff * cutoff;
  const double s2 = sigma * sigma;
  for (size_t i = 0; i < n; ++i) {
    double fx = 0.0, fy = 0.0, fz = 0.0;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      double dx = positions[i].x - positions[j].x;
      double dy = positions[i].y - positions[j].y;
      double dz = positions[i].z - positions[j].z;
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        double inv2 = 1.0 / r2;
        double sr2 = s2 * inv2;
        double sr6 = sr2 * sr2 * sr2;
        double f = 24.0 * epsilon * sr6 * (2.0 * sr6 - 1.0) * inv2;
        fx += f * dx;
        fy += f * dy;
        fz += f * dz;
      }
    }
    forces[i] = Vec3d{fx, fy, fz};
  }
}

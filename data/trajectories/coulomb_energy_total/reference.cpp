#include <cmath>

// Total electrostatic energy of n point charges (Coulomb constant 1):
// U = sum over pairs i < j of q_i q_j / |r_i - r_j|, in double precision.
double coulomb_energy(int n, const double* x, const double* y, const double* z, const double* q) {
  double u = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
      u += q[i] * q[j] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return u;
}

#include <cmath>

// Solves Kepler's equation E - e sin E = M for the eccentric anomaly E of n
// orbits (mean anomaly M in [0, 2 pi), eccentricity e in [0, 0.6]) with a fixed
// 6 Newton iterations from the starting guess E0 = M + e sin M.
void keplerSolve(int n, const float* meanAnomaly, const float* ecc, float* eccAnomaly) {
  for (int i = 0; i < n; ++i) {
    float M = meanAnomaly[i], e = ecc[i];
    float E = M + e * std::sin(M);
    for (int k = 0; k < 6; ++k) {
      E = E - (E - e * std::sin(E) - M) / (1.0f - e * std::cos(E));
    }
    eccAnomaly[i] = E;
  }
}

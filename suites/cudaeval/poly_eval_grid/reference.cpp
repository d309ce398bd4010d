#include <vector>

// Evaluates every polynomial of a family at every sample point: polynomial p
// has coefficients coef[p*(deg+1) + d] for x^d (d = 0..deg), and
// y[p*nx + k] = sum_d coef[p][d] * x[k]^d. Written the way a response-surface
// or calibration-curve sweep (or a basis evaluated on a quadrature grid)
// often is: the powers of each sample are tabulated once (by repeated
// multiplication) and every polynomial is a dot product with them, in float.
void evalPolynomialGrid(int npoly, int deg, const float* coef, int nx, const float* x, float* y) {
  std::vector<float> powers(deg + 1);
  for (int k = 0; k < nx; ++k) {
    powers[0] = 1.0f;
    for (int d = 1; d <= deg; ++d) powers[d] = powers[d - 1] * x[k];
    for (int p = 0; p < npoly; ++p) {
      const float* c = coef + static_cast<long long>(p) * (deg + 1);
      float s = 0.0f;
      for (int d = 0; d <= deg; ++d) s += c[d] * powers[d];
      y[static_cast<long long>(p) * nx + k] = s;
    }
  }
}

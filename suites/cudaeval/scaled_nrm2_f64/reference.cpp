#include <cmath>

// Euclidean norm of a double vector without overflow or harmful underflow,
// the classic scaled-sum-of-squares method of the reference BLAS dnrm2:
// a running pair (scale, ssq) keeps the norm as scale * sqrt(ssq), with scale
// the largest |x[i]| seen so far, so no square of a huge or tiny entry is ever
// formed. Entries near 1e305 (whose squares overflow) and near 1e-310 are
// valid input. The norm of an empty or all-zero vector is 0.
double scaledNrm2(int n, const double* x) {
  double scale = 0.0;
  double ssq = 1.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] != 0.0) {
      const double a = std::fabs(x[i]);
      if (scale < a) {
        const double q = scale / a;
        ssq = 1.0 + ssq * q * q;
        scale = a;
      } else {
        const double q = a / scale;
        ssq += q * q;
      }
    }
  }
  return scale * std::sqrt(ssq);
}

#include <cmath>
#include <cstddef>

// Returns the largest absolute value among x[0..n-1] (0 for an empty array).
double maxAbsValue(const double* x, size_t n) {
  double best = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double a = std::fabs(x[i]);
    if (a > best) best = a;
  }
  return best;
}

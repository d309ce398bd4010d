#include <cstddef>

// Mean and population variance (divide by n) of x[0..n-1], computed with the
// numerically careful two-pass method. Both are 0 for an empty array.
void meanVariance(const double* x, size_t n, double& mean, double& variance) {
  if (n == 0) {
    mean = 0.0;
    variance = 0.0;
    return;
  }
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += x[i];
  double m = sum / static_cast<double>(n);
  double sq = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double d = x[i] - m;
    sq += d * d;
  }
  mean = m;
  variance = sq / static_cast<double>(n);
}

#include <cmath>

// Monte Carlo estimate of the integral of f(x, y) = exp(-(x^2 + y^2)) cos(3x)
// over the square [-1, 1] x [-1, 1] from n precomputed uniform samples
// (xs[i], ys[i]): area (4) times the mean of f over the samples.
double monte_carlo_estimate(int n, const float* xs, const float* ys) {
  if (n <= 0) return 0.0;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double x = xs[i], y = ys[i];
    s += std::exp(-(x * x + y * y)) * std::cos(3.0 * x);
  }
  return 4.0 * s / n;
}

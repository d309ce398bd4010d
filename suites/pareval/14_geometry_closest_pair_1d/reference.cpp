#include <cmath>
#include <limits>
#include <vector>

double distance(double x1, double x2) {
  return std::abs(x1 - x2);
}

// Every pair once; fewer than 2 values leave the result at DBL_MAX.
double closestPair(std::vector<double> const& x) {
  const size_t n = x.size();
  double best = std::numeric_limits<double>::max();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      double d = distance(x[i], x[j]);
      if (d < best) best = d;
    }
  return best;
}

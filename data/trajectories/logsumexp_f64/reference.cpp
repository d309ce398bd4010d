#include <cmath>
#include <vector>

// Numerically stable log(sum(exp(x))) of a non-empty vector: shift by the
// maximum before exponentiating.
double logSumExp(std::vector<double> const& x) {
  double m = x[0];
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (x[i] > m) m = x[i];
  }
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    s += std::exp(x[i] - m);
  }
  return m + std::log(s);
}

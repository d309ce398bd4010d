#include <algorithm>
#include <cstddef>
#include <vector>

// Sum over i of min(x[i], y[i]); x and y have the same length.
double sumOfMinimumElements(std::vector<double> const& x, std::vector<double> const& y) {
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += std::min(x[i], y[i]);
  return sum;
}

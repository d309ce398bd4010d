#include <cstddef>
#include <vector>

// In place: every entry v becomes 1 - 1/v.
void oneMinusInverse(std::vector<double> &x) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) x[i] = 1.0 - 1.0 / x[i];
}

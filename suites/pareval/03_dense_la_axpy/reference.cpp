#include <cstddef>
#include <vector>

// z[i] = alpha * x[i] + y[i] for every i; x, y and z have the same length.
void axpy(double alpha, std::vector<double> const& x, std::vector<double> const& y, std::vector<double> &z) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) z[i] = alpha * x[i] + y[i];
}

#include <cstddef>
#include <vector>

// Builds the inclusive prefix sums p[i] = x[0] + ... + x[i] one at a time and
// returns p[0] + p[1] + ... + p[n-1] (0 for an empty vector).
double sumOfPrefixSum(std::vector<double> const& x) {
  double running = 0.0;
  double total = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    running += x[i];
    total += running;
  }
  return total;
}

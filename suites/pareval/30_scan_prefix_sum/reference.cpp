#include <cstddef>
#include <vector>

// Inclusive prefix sum: output[i] = x[0] + x[1] + ... + x[i], accumulated left to right.
void prefixSum(std::vector<double> const& x, std::vector<double> &output) {
  double running = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    running += x[i];
    output[i] = running;
  }
}

#include <cstddef>
#include <vector>

// One 3-point Jacobi sweep: output[i] is the mean of input[i-1], input[i] and
// input[i+1], where an index outside the vector contributes 0 (the sum is
// still divided by 3 at both ends).
void jacobi1D(std::vector<double> const& input, std::vector<double> &output) {
  const size_t n = input.size();
  for (size_t i = 0; i < n; ++i) {
    double left = (i > 0) ? input[i - 1] : 0.0;
    double right = (i + 1 < n) ? input[i + 1] : 0.0;
    output[i] = (left + input[i] + right) / 3.0;
  }
}

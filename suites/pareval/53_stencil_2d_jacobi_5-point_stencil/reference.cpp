#include <cstddef>
#include <vector>

// One 5-point Jacobi sweep on an N x N row-major grid: output(i, j) is the
// mean of input(i, j) and its left, right, upper and lower neighbours, a
// neighbour outside the grid contributing 0 (the sum is still divided by 5).
void jacobi2D(std::vector<double> const& input, std::vector<double> &output, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      double left = (j > 0) ? input[i * N + j - 1] : 0.0;
      double right = (j + 1 < N) ? input[i * N + j + 1] : 0.0;
      double up = (i > 0) ? input[(i - 1) * N + j] : 0.0;
      double down = (i + 1 < N) ? input[(i + 1) * N + j] : 0.0;
      output[i * N + j] = (left + right + up + down + input[i * N + j]) / 5.0;
    }
  }
}

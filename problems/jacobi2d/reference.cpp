#include <cstddef>
#include <vector>

// One Jacobi sweep of a 5-point stencil on an N x N row-major grid: each
// output cell is the mean of the cell and its four neighbours, with cells
// outside the grid counted as zero.
void jacobi2d(std::vector<double> const& input, std::vector<double>& output, size_t N) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      double sum = input[i * N + j];
      if (i > 0) sum += input[(i - 1) * N + j];
      if (i + 1 < N) sum += input[(i + 1) * N + j];
      if (j > 0) sum += input[i * N + j - 1];
      if (j + 1 < N) sum += input[i * N + j + 1];
      output[i * N + j] = sum / 5.0;
    }
  }
}

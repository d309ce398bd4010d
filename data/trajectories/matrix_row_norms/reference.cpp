#include <cmath>
#include <cstddef>
#include <vector>

// Euclidean norm of every row of a rows x cols row-major matrix M.
void row_l2_norms(std::vector<double> const& M, std::vector<double>& norms, size_t rows, size_t cols) {
  for (size_t i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (size_t j = 0; j < cols; ++j) {
      double v = M[i * cols + j];
      sum += v * v;
    }
    norms[i] = std::sqrt(sum);
  }
}

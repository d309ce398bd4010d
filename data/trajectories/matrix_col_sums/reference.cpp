#include <cstddef>
#include <vector>

// Sum of every column of a rows x cols row-major matrix A.
void column_sums(std::vector<double> const& A, std::vector<double>& sums, size_t rows, size_t cols) {
  for (size_t j = 0; j < cols; ++j) sums[j] = 0.0;
  for (size_t i = 0; i < rows; ++i) {
    for (size_t j = 0; j < cols; ++j) sums[j] += A[i * cols + j];
  }
}

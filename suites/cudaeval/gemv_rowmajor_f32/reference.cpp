#include <cstddef>
#include <vector>

// y = A * x, where A is a rows x cols matrix stored row-major (A[i * cols + j]),
// x has cols entries and y has rows entries.
void matVecRowMajor(std::vector<float> const& A, std::vector<float> const& x, std::vector<float>& y,
                    size_t rows, size_t cols) {
  for (size_t i = 0; i < rows; ++i) {
    float sum = 0.0f;
    for (size_t j = 0; j < cols; ++j) {
      sum += A[i * cols + j] * x[j];
    }
    y[i] = sum;
  }
}

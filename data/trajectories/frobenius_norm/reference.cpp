#include <cmath>
#include <cstddef>

// Frobenius norm of a rows x cols float matrix: the square root of the sum of
// the squares of all entries, accumulated in double precision.
double frobenius_norm_f32(const float* A, int rows, int cols) {
  size_t total = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  double sum = 0.0;
  for (size_t k = 0; k < total; ++k) {
    double v = A[k];
    sum += v * v;
  }
  return std::sqrt(sum);
}

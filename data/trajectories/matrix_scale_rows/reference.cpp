#include <cstddef>

// Multiplies every row i of a rows x cols row-major matrix A by scale[i], in place.
void scale_matrix_rows(int rows, int cols, const float* scale, float* A) {
  for (int i = 0; i < rows; ++i) {
    float s = scale[i];
    float* row = A + static_cast<size_t>(i) * cols;
    for (int j = 0; j < cols; ++j) row[j] *= s;
  }
}

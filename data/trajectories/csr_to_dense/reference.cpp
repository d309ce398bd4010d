#include <cstddef>

// Expands a rows x cols CSR matrix (float values) into a dense row-major array:
// stored entries are copied to their positions and every other entry is zero.
void csr_expand_dense(int rows, int cols, const int* row_ptr, const int* col_idx, const float* values,
                      float* dense) {
  size_t total = static_cast<size_t>(rows) * cols;
  for (size_t k = 0; k < total; ++k) dense[k] = 0.0f;
  for (int i = 0; i < rows; ++i) {
    float* out = dense + static_cast<size_t>(i) * cols;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) out[col_idx[k]] = values[k];
  }
}

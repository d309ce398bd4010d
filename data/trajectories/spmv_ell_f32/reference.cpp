#include <cstddef>

// y = A x for an n x n sparse matrix in ELLPACK form: every row has `width`
// slots, stored slot-major (entry k of row i at index k*n + i). Padding slots
// carry the value 0 with some valid column index, so every slot can be used.
void ell_spmv(int n, int width, const int* ell_col, const float* ell_val, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = 0.0f;
  for (int k = 0; k < width; ++k) {
    const int* col = ell_col + static_cast<size_t>(k) * n;
    const float* val = ell_val + static_cast<size_t>(k) * n;
    for (int i = 0; i < n; ++i) y[i] += val[i] * x[col[i]];
  }
}

#include <algorithm>

// Sparse times dense: Y = A * X, where A is a rows x cols CSR matrix (sorted,
// distinct column indices) and X is a dense cols x k row-major matrix (k
// right-hand sides, e.g. the feature matrix of a graph convolution). Y is
// rows x k, row-major. Each row of Y accumulates the scaled rows of X of the
// row's stored entries in storage order.
void csrSpmmRowMajor(int rows, int cols, int k, const int* row_ptr, const int* col_idx,
                     const float* values, const float* X, float* Y) {
  (void)cols;
  const long long ld = k;
  for (int i = 0; i < rows; ++i) {
    float* yrow = Y + i * ld;
    std::fill(yrow, yrow + k, 0.0f);
    const int begin = row_ptr[i], end = row_ptr[i + 1];
    for (int e = begin; e != end; ++e) {
      const float a = values[e];
      const float* xrow = X + col_idx[e] * ld;
      for (int t = 0; t < k; ++t) yrow[t] += a * xrow[t];
    }
  }
}

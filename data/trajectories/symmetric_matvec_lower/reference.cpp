#include <cstddef>

// y = S x for a symmetric n x n matrix S of which only the lower triangle
// (j <= i) of the row-major array is valid; entries above the diagonal are
// not part of the matrix and must not be read as data. S[i][j] for j < i also
// stands for S[j][i].
void symv_lower_dense(int n, const double* S, const double* x, double* y) {
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* row = S + static_cast<size_t>(i) * n;
    double xi = x[i];
    double acc = 0.0;
    for (int j = 0; j < i; ++j) {
      acc += row[j] * x[j];
      y[j] += row[j] * xi;
    }
    acc += row[i] * xi;
    y[i] += acc;
  }
}

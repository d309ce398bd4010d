#include <cmath>

// Row and column equilibration factors of a general m x n matrix (row-major),
// as LAPACK's dgeequ computes them before a linear solve (without its error
// returns and underflow clamps):
//   r[i] = 1 / max_j |A[i][j]|
//   c[j] = 1 / max_i (r[i] * |A[i][j]|)
// so that diag(r) * A * diag(c) has entries of magnitude at most 1 with a 1
// in every row and column. A row whose entries are all 0 gets r[i] = 1, and a
// column whose scaled entries are all 0 gets c[j] = 1.
void geequRowColScaling(int m, int n, const double* A, double* r, double* c) {
  for (int i = 0; i < m; ++i) {
    double mx = 0.0;
    for (int j = 0; j < n; ++j) mx = std::fmax(mx, std::fabs(A[static_cast<long long>(i) * n + j]));
    r[i] = mx > 0.0 ? 1.0 / mx : 1.0;
  }
  for (int j = 0; j < n; ++j) c[j] = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      c[j] = std::fmax(c[j], r[i] * std::fabs(A[static_cast<long long>(i) * n + j]));
  for (int j = 0; j < n; ++j) c[j] = c[j] > 0.0 ? 1.0 / c[j] : 1.0;
}

#include <cmath>
#include <cstddef>
#include <vector>

// Weighted Jacobi iterations for A x = b with a square n x n CSR matrix A
// (sorted, distinct columns; every row stores a nonzero diagonal entry).
// Starting from the guess in x, performs `iters` sweeps, each from the
// previous iterate:
//   x_new[i] = x[i] + omega * (b[i] - sum_k A[i][k] * x[k]) / A[i][i]
// (the row sum in storage order), leaves the last iterate in x and returns
// the 2-norm of its residual b - A x (squares summed in row order).
double csrWeightedJacobi(int n, const int* row_ptr, const int* col_idx, const double* values,
                         const double* b, double omega, int iters, double* x) {
  std::vector<double> next(static_cast<std::size_t>(n));
  for (int it = 0; it < iters; ++it) {
    for (int i = 0; i < n; ++i) {
      double ax = 0.0, diag = 0.0;
      for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        ax += values[k] * x[col_idx[k]];
        if (col_idx[k] == i) diag = values[k];
      }
      next[i] = x[i] + omega * (b[i] - ax) / diag;
    }
    for (int i = 0; i < n; ++i) x[i] = next[i];
  }
  double rr = 0.0;
  for (int i = 0; i < n; ++i) {
    double ax = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) ax += values[k] * x[col_idx[k]];
    const double r = b[i] - ax;
    rr += r * r;
  }
  return std::sqrt(rr);
}

#include <cmath>
#include <cstddef>

// Weighted diagonal-dominance test for every row of an n x n row-major matrix:
// row i is dominant when |A[i][i]| >= w * sum over j != i of |A[i][j]|
// (w = 1 is the classical strict-sum test with ties allowed).
void rows_diag_dominant(int n, double w, const double* A, bool* dominant) {
  for (int i = 0; i < n; ++i) {
    const double* row = A + static_cast<size_t>(i) * n;
    double off = 0.0;
    for (int j = 0; j < n; ++j) {
      if (j != i) off += std::fabs(row[j]);
    }
    dominant[i] = std::fabs(row[i]) >= w * off;
  }
}

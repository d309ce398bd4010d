// Forward substitution with many right-hand sides: solves L X = B for X,
// where L is n x n lower triangular. The strictly lower part of L is read from
// the row-major array L (entries on and above the diagonal are ignored) and
// the diagonal from diag. B and X are n x nrhs, row-major (one right-hand side
// per column). Row i of X is B's row i minus L[i][j] times row j of X for all
// j < i, divided by diag[i].
void lowerTriangularSolveMany(int n, int nrhs, const double* L, const double* diag, const double* B, double* X) {
  for (int i = 0; i < n; ++i) {
    double* xi = X + (long long)i * nrhs;
    const double* bi = B + (long long)i * nrhs;
    for (int r = 0; r < nrhs; ++r) xi[r] = bi[r];
    for (int j = 0; j < i; ++j) {
      const double lij = L[(long long)i * n + j];
      const double* xj = X + (long long)j * nrhs;
      for (int r = 0; r < nrhs; ++r) xi[r] -= lij * xj[r];
    }
    const double d = diag[i];
    for (int r = 0; r < nrhs; ++r) xi[r] /= d;
  }
}

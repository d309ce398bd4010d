// General tridiagonal matrix-vector product in the form of LAPACK's dlagtm:
//   y = alpha * T * x + beta * y
// for an n x n tridiagonal T held as its three diagonals: dl (n - 1 entries,
// T[i][i-1] = dl[i-1]), d (n entries, T[i][i] = d[i]) and du (n - 1 entries,
// T[i][i+1] = du[i]). Every row is evaluated as lower + diagonal + upper, in
// that order, then scaled; when beta is 0 the old y is not read (it may hold
// garbage), as in BLAS.
void tridiagMatVec(int n, double alpha, const double* dl, const double* d, const double* du,
                   const double* x, double beta, double* y) {
  for (int i = 0; i < n; ++i) {
    double t = d[i] * x[i];
    if (i > 0) t = dl[i - 1] * x[i - 1] + t;
    if (i < n - 1) t = t + du[i] * x[i + 1];
    double old = beta == 0.0 ? 0.0 : beta * y[i];
    y[i] = alpha * t + old;
  }
}

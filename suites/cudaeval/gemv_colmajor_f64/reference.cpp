// y = A * x in double precision, where A is m x n stored column-major
// (element (i, j) at A[i + j * m], as in Fortran/BLAS). Written in the
// cache-friendly column order: y accumulates x[j] times column j.
void matVecColMajorF64(int m, int n, const double* A, const double* x, double* y) {
  for (int i = 0; i < m; ++i) y[i] = 0.0;
  for (int j = 0; j < n; ++j) {
    const double xj = x[j];
    const double* col = A + (long long)j * m;
    for (int i = 0; i < m; ++i) {
      y[i] += col[i] * xj;
    }
  }
}

// General band matrix-vector product y = alpha * A * x + beta * y (BLAS dgbmv,
// no transpose). A is m x n with kl subdiagonals and ku superdiagonals, held
// in LAPACK band storage: column j of A occupies ab[j * ldab .. j * ldab + ldab)
// with ldab = kl + ku + 1, and A[i][j] = ab[(ku + i - j) + j * ldab] for
// max(0, j - ku) <= i <= min(m - 1, j + kl). The other slots of ab are
// padding with arbitrary contents and must not be used. As in the reference
// BLAS, y is first scaled by beta (set to 0 when beta is 0, without reading
// it) and the columns are then added in increasing j.
void bandGbmv(int m, int n, int kl, int ku, double alpha, const double* ab, const double* x,
              double beta, double* y) {
  const int ldab = kl + ku + 1;
  for (int i = 0; i < m; ++i) y[i] = beta == 0.0 ? 0.0 : beta * y[i];
  for (int j = 0; j < n; ++j) {
    const double temp = alpha * x[j];
    const int i0 = j - ku > 0 ? j - ku : 0;
    const int i1 = j + kl < m - 1 ? j + kl : m - 1;
    for (int i = i0; i <= i1; ++i)
      y[i] += temp * ab[(ku + i - j) + static_cast<long long>(j) * ldab];
  }
}

// Triangular matrix product in place (BLAS strmm, side = 'L', uplo = 'L',
// trans = 'N', diag = 'N'): B := alpha * L * B, where L is the lower triangle
// (diagonal included) of the row-major n x n array Lmat (its strictly upper
// part holds unrelated data and is never read) and B is n x m row-major.
// Rows are overwritten from the bottom up, so row i is formed from rows
// p <= i of the original B: B[i][c] = alpha * sum_{p<=i} L[i][p] * B[p][c],
// with p increasing.
void trmmLowerLeft(int n, int m, float alpha, const float* Lmat, float* B) {
  for (int i = n - 1; i >= 0; --i) {
    const float* l = Lmat + static_cast<long long>(i) * n;
    float* bi = B + static_cast<long long>(i) * m;
    for (int c = 0; c < m; ++c) {
      float s = 0.0f;
      for (int p = 0; p <= i; ++p) s += l[p] * B[static_cast<long long>(p) * m + c];
      bi[c] = alpha * s;
    }
  }
}

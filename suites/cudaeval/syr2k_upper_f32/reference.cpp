// Symmetric rank-2k update of the upper triangle (BLAS ssyr2k, uplo = 'U',
// trans = 'N'):
//   C = alpha * (A * B^T + B * A^T) + beta * C
// with A and B n x k row-major and C n x n row-major. Only entries with
// j >= i are computed and written; the strictly lower triangle of C is left
// exactly as it was. When beta is 0, C's old upper values are not read.
// Each entry accumulates sum_p A[i][p] * B[j][p] + B[i][p] * A[j][p] over
// increasing p, in float.
void syr2kUpper(int n, int k, float alpha, const float* A, const float* B, float beta, float* C) {
  for (int i = 0; i < n; ++i) {
    const float* ai = A + static_cast<long long>(i) * k;
    const float* bi = B + static_cast<long long>(i) * k;
    for (int j = i; j < n; ++j) {
      const float* aj = A + static_cast<long long>(j) * k;
      const float* bj = B + static_cast<long long>(j) * k;
      float s = 0.0f;
      for (int p = 0; p < k; ++p) s += ai[p] * bj[p] + bi[p] * aj[p];
      float* c = C + static_cast<long long>(i) * n + j;
      *c = beta == 0.0f ? alpha * s : alpha * s + beta * *c;
    }
  }
}

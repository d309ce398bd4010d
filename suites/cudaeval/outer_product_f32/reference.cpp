// Rank-one outer product M = u * v^T: M is m x n, row-major, M[i][j] = u[i] * v[j].
void outerProductF32(int m, int n, const float* u, const float* v, float* M) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      M[i * n + j] = u[i] * v[j];
    }
  }
}

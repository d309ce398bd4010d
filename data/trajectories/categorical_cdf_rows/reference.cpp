// Turns each row of positive weights into the cumulative distribution used
// for categorical sampling: cdf[i][j] = (w[i][0] + ... + w[i][j]) / sum_j w[i][j].
// w and cdf are n x m, row-major.
void categorical_cdf_rows(int n, int m, const float* w, float* cdf) {
  for (int i = 0; i < n; ++i) {
    const float* r = w + static_cast<long long>(i) * m;
    float* c = cdf + static_cast<long long>(i) * m;
    float total = 0.0f;
    for (int j = 0; j < m; ++j) total += r[j];
    float run = 0.0f;
    for (int j = 0; j < m; ++j) {
      run += r[j];
      c[j] = run / total;
    }
  }
}

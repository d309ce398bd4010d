// Sums for a least-squares cubic fit y ~ c0 + c1 x + c2 x^2 + c3 x^3: the
// normal equations need the power sums S[k] = sum_i x_i^k (k = 0..6) and the
// moments T[k] = sum_i x_i^k y_i (k = 0..3). Powers are built by repeated
// multiplication.
void cubic_fit_sums(int n, const double* x, const double* y, double* S, double* T) {
  for (int k = 0; k < 7; ++k) S[k] = 0.0;
  for (int k = 0; k < 4; ++k) T[k] = 0.0;
  for (int i = 0; i < n; ++i) {
    double p = 1.0;
    for (int k = 0; k < 7; ++k) {
      S[k] += p;
      if (k < 4) T[k] += p * y[i];
      p *= x[i];
    }
  }
}

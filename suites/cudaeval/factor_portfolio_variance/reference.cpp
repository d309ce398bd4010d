// Variances of P portfolios under a k-factor risk model (Barra-style): the
// asset covariance is B B^T + diag(D), with B the m x k factor loadings
// (row-major) and D the m specific variances, so for the weights W[p] (row p
// of the P x m row-major matrix W)
//   var[p] = sum_f (sum_i W[p][i] B[i][f])^2 + sum_i W[p][i]^2 D[i],
// with the factor exposures and both sums accumulated in double.
void factorPortfolioVariance(int P, int m, int k, const float* W, const float* B, const float* D,
                             double* var) {
  for (int p = 0; p < P; ++p) {
    const float* w = W + static_cast<long long>(p) * m;
    double total = 0.0;
    for (int f = 0; f < k; ++f) {
      double e = 0.0;
      for (int i = 0; i < m; ++i)
        e += static_cast<double>(w[i]) * B[static_cast<long long>(i) * k + f];
      total += e * e;
    }
    for (int i = 0; i < m; ++i) total += static_cast<double>(w[i]) * w[i] * D[i];
    var[p] = total;
  }
}

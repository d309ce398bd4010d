#include <cstddef>
#include <vector>

// Sample covariance matrix of n observations of p variables: X is n x p,
// row-major (one observation per row). With column means m_i (in double),
//   cov[i][j] = sum_s (X[s][i] - m_i) * (X[s][j] - m_j) / (n - 1)
// summed in double over increasing s and rounded to float; cov is the full
// symmetric p x p matrix, row-major. n >= 2.
void covarianceMatrix(int n, int p, const float* X, float* cov) {
  std::vector<double> mean(static_cast<std::size_t>(p), 0.0);
  for (int s = 0; s < n; ++s)
    for (int i = 0; i < p; ++i) mean[i] += X[static_cast<long long>(s) * p + i];
  for (int i = 0; i < p; ++i) mean[i] /= n;
  for (int i = 0; i < p; ++i) {
    for (int j = i; j < p; ++j) {
      double acc = 0.0;
      for (int s = 0; s < n; ++s) {
        const float* row = X + static_cast<long long>(s) * p;
        acc += (row[i] - mean[i]) * (row[j] - mean[j]);
      }
      const float c = static_cast<float>(acc / (n - 1));
      cov[static_cast<long long>(i) * p + j] = c;
      cov[static_cast<long long>(j) * p + i] = c;
    }
  }
}

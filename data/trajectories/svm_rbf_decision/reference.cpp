#include <cmath>

// Decision values of a one-class RBF-kernel SVM on 8-feature inputs:
// score[q] = sum_j alpha[j] * exp(-gamma * |queries[q] - sv[j]|^2), where
// queries (m x 8) and support vectors sv (n x 8) are row-major.
void svm_rbf_decision(int m, int n, const float* queries, const float* sv, const float* alpha, float gamma,
                      float* score) {
  const int D = 8;
  for (int q = 0; q < m; ++q) {
    const float* x = queries + static_cast<long long>(q) * D;
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) {
      const float* s = sv + static_cast<long long>(j) * D;
      float d2 = 0.0f;
      for (int k = 0; k < D; ++k) {
        float t = x[k] - s[k];
        d2 += t * t;
      }
      acc += alpha[j] * std::exp(-gamma * d2);
    }
    score[q] = acc;
  }
}

#include <cmath>
#include <cstddef>
#include <vector>

// Forward pass of one attention head (no mask): for each of the nq queries
// (rows of Q, nq x d row-major), the scores against the nk keys (rows of K,
// nk x d) are s_j = scale * dot(q, k_j); the weights are softmax(s) (shifted
// by the row maximum) and the output row is O[i] = sum_j softmax(s)_j * V[j]
// with V nk x d. Everything in float; with no keys (nk = 0) the output rows
// are zero.
void attentionHeadForward(int nq, int nk, int d, const float* Q, const float* K, const float* V,
                          float scale, float* O) {
  std::vector<float> s(static_cast<std::size_t>(nk));
  for (int i = 0; i < nq; ++i) {
    const float* q = Q + static_cast<long long>(i) * d;
    float mx = -INFINITY;
    for (int j = 0; j < nk; ++j) {
      const float* k = K + static_cast<long long>(j) * d;
      float dot = 0.0f;
      for (int t = 0; t < d; ++t) dot += q[t] * k[t];
      s[j] = scale * dot;
      mx = s[j] > mx ? s[j] : mx;
    }
    float sum = 0.0f;
    for (int j = 0; j < nk; ++j) {
      s[j] = std::exp(s[j] - mx);
      sum += s[j];
    }
    float* o = O + static_cast<long long>(i) * d;
    for (int t = 0; t < d; ++t) o[t] = 0.0f;
    for (int j = 0; j < nk; ++j) {
      const float w = s[j] / sum;
      const float* v = V + static_cast<long long>(j) * d;
      for (int t = 0; t < d; ++t) o[t] += w * v[t];
    }
  }
}

#include <cstddef>

// Causally masked attention scores: Q and Kt hold n query and n key vectors of
// d floats each (row-major). S (n x n) gets S[i][j] = scale * dot(Q_i, Kt_j)
// for j <= i (a query sees only keys at or before its position) and 0 above
// the diagonal. Dot products accumulate over p in increasing order.
void masked_qk_scores(int n, int d, float scale, const float* Q, const float* Kt, float* S) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (j > i) {
        S[(size_t)i * n + j] = 0.0f;
        continue;
      }
      float acc = 0.0f;
      for (int p = 0; p < d; ++p) acc += Q[(size_t)i * d + p] * Kt[(size_t)j * d + p];
      S[(size_t)i * n + j] = scale * acc;
    }
}

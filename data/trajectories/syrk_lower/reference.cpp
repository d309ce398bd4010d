#include <cstddef>

// Symmetric rank-k product C = A * A^T, lower triangle only. A is n x k and C is
// n x n, both row-major; entries above the diagonal (j > i) are set to zero.
void syrk_lower_aat(int n, int k, const float* A, float* C) {
  for (int i = 0; i < n; ++i) {
    const float* ai = A + static_cast<size_t>(i) * k;
    for (int j = 0; j < n; ++j) {
      float* c = C + static_cast<size_t>(i) * n + j;
      if (j > i) {
        *c = 0.0f;
        continue;
      }
      const float* aj = A + static_cast<size_t>(j) * k;
      float s = 0.0f;
      for (int p = 0; p < k; ++p) s += ai[p] * aj[p];
      *c = s;
    }
  }
}

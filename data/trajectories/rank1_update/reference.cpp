#include <cstddef>

// Rank-1 update A += alpha * x * y^T of an m x n row-major float matrix.
void rank1_update_f32(int m, int n, float alpha, const float* x, const float* y, float* A) {
  for (int i = 0; i < m; ++i) {
    float ax = alpha * x[i];
    float* row = A + static_cast<size_t>(i) * n;
    for (int j = 0; j < n; ++j) row[j] += ax * y[j];
  }
}

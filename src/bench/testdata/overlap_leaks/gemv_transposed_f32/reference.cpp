#include <cstddef>

// y = A^T x for an m x n row-major matrix A: y[j] = sum over i of A[i][j] * x[i].
// The loops walk A row by row so the inner loop streams contiguous memory.
void gemv_transposed(int m, int n, const float* A, const float* x, float* y) {
  for (int j = 0; j < n; ++j) y[j] = 0.0f;
  for (int i = 0; i < m; ++i) {
    float xi = x[i];
    const float* row = A + static_cast<size_t>(i) * n;
    for (int j = 0; j < n; ++j) y[j] += row[j] * xi;
  }
}

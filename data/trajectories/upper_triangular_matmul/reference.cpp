#include <cstddef>

// W = triu(U) * triu(V) for n x n row-major float matrices: only the upper
// triangles (column >= row) of U and V are data; their lower parts are ignored.
// The product is upper triangular, and W's lower triangle is set to zero.
void triu_matmul(int n, const float* U, const float* V, float* W) {
  size_t nn = static_cast<size_t>(n);
  for (size_t k = 0; k < nn * nn; ++k) W[k] = 0.0f;
  for (int i = 0; i < n; ++i) {
    float* w = W + static_cast<size_t>(i) * n;
    for (int p = i; p < n; ++p) {
      float a = U[static_cast<size_t>(i) * n + p];
      const float* v = V + static_cast<size_t>(p) * n;
      for (int j = p; j < n; ++j) w[j] += a * v[j];
    }
  }
}

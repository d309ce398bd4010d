#include <cmath>
#include <cstddef>

// Gaussian (RBF) affinity matrix between two point sets: A holds m points and
// B holds n points, each a row of d floats (row-major). The output K (m x n)
// is K[i][j] = exp(-gamma * |A_i - B_j|^2), the squared distance summed over
// the d coordinates in increasing order.
void gaussian_affinity(int m, int n, int d, float gamma, const float* A, const float* B,
                       float* K) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int p = 0; p < d; ++p) {
        float diff = A[(size_t)i * d + p] - B[(size_t)j * d + p];
        s += diff * diff;
      }
      K[(size_t)i * n + j] = std::exp(-gamma * s);
    }
}

#include <cstddef>

// Fully connected layer with ReLU: Y = max(0, X * W + bias) for row-major
// X (m x k), W (k x n), bias (n) and Y (m x n). Each output row starts from
// the bias and accumulates the k products in increasing p order.
void linear_relu_forward(int m, int n, int k, const float* X, const float* W, const float* bias,
                         float* Y) {
  for (int i = 0; i < m; ++i) {
    float* y = Y + (size_t)i * n;
    for (int j = 0; j < n; ++j) y[j] = 0.0f;
    for (int p = 0; p < k; ++p) {
      float a = X[(size_t)i * k + p];
      const float* w = W + (size_t)p * n;
      for (int j = 0; j < n; ++j) y[j] += a * w[j];
    }
    for (int j = 0; j < n; ++j) {
      float v = y[j] + bias[j];
      y[j] = v > 0.0f ? v : 0.0f;
    }
  }
}

#include <cmath>

// GELU activation in its tanh approximation:
// y = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
void geluTanhApprox(int n, const float* x, float* y) {
  const float k = 0.7978845608f;  // sqrt(2 / pi)
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float u = k * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + std::tanh(u));
  }
}

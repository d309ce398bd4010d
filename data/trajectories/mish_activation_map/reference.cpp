#include <cmath>

// Mish activation: y = x * tanh(softplus(x)) with softplus(x) = log(1 + e^x).
void mishActivation(int n, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    y[i] = v * std::tanh(std::log1p(std::exp(v)));
  }
}

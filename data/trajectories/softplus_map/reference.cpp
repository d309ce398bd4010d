#include <cmath>

// Softplus activation y = log(1 + exp(x)), evaluated in the overflow-safe form
// max(x, 0) + log1p(exp(-|x|)).
void softplusMap(int n, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float pos = v > 0.0f ? v : 0.0f;
    y[i] = pos + std::log1p(std::exp(-std::fabs(v)));
  }
}

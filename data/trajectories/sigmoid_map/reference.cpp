#include <cmath>

// Logistic sigmoid: y[i] = 1 / (1 + exp(-x[i])).
void logisticSigmoid(int n, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    y[i] = 1.0f / (1.0f + std::exp(-x[i]));
  }
}

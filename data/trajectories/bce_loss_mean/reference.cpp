#include <cmath>
#include <cstdint>

// Mean binary cross-entropy of n predicted probabilities p[i] in (0, 1)
// against labels y[i] in {0, 1}, in double precision:
//   loss = -(1/n) * sum_i [ y_i log(p_i) + (1 - y_i) log(1 - p_i) ].
// Returns 0 for n <= 0.
double bce_loss(int n, const float* p, const uint8_t* y) {
  if (n <= 0) return 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    double pi = p[i];
    sum += y[i] ? std::log(pi) : std::log(1.0 - pi);
  }
  return -sum / n;
}

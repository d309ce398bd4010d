#include <cmath>

// Mean absolute error between predictions and targets (n >= 1).
double meanAbsoluteError(int n, const double* pred, const double* target) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += std::fabs(pred[i] - target[i]);
  }
  return sum / n;
}

#include <cmath>

// z-score standardisation: out[i] = (x[i] - mean) / stddev with the population
// standard deviation; mean and the second moment are accumulated in double.
// A constant input (zero variance) maps to all zeros.
void standardizeValues(int n, const float* x, float* out) {
  if (n <= 0) return;
  double s = 0.0, s2 = 0.0;
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    s += v;
    s2 += v * v;
  }
  double mean = s / n;
  double var = s2 / n - mean * mean;
  double inv = var > 0.0 ? 1.0 / std::sqrt(var) : 0.0;
  for (int i = 0; i < n; ++i) out[i] = static_cast<float>((x[i] - mean) * inv);
}

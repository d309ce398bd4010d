#include <cmath>

// Gradient clipping by global norm: if the Euclidean norm of g exceeds
// max_norm, g is scaled in place by max_norm / norm.
void clipGradientNorm(int n, float* g, float max_norm) {
  double sq = 0.0;
  for (int i = 0; i < n; ++i) sq += static_cast<double>(g[i]) * static_cast<double>(g[i]);
  double norm = std::sqrt(sq);
  if (norm > max_norm) {
    float s = static_cast<float>(max_norm / norm);
    for (int i = 0; i < n; ++i) g[i] *= s;
  }
}

#include <algorithm>
#include <cmath>

// A three-pass activation pipeline: softsign u = x / (1 + |x|), then the affine
// map gamma * u + beta, then clamping to [lo, hi]; each pass sweeps out.
void softsignAffineClamp(int n, const float* x, float gamma, float beta, float lo, float hi,
                         float* out) {
  for (int i = 0; i < n; ++i) out[i] = x[i] / (1.0f + std::fabs(x[i]));
  for (int i = 0; i < n; ++i) out[i] = gamma * out[i] + beta;
  for (int i = 0; i < n; ++i) out[i] = std::min(std::max(out[i], lo), hi);
}

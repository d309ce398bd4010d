#include <cmath>

// One Adam optimizer step over n parameters, written as three sweeps:
// first moments, then second moments, then the bias-corrected parameter update.
void adamUpdate(int n, const float* grad, float lr, float beta1, float beta2, int step,
                float* param, float* m, float* v) {
  const float eps = 1e-8f;
  float c1 = 1.0f - std::pow(beta1, static_cast<float>(step));
  float c2 = 1.0f - std::pow(beta2, static_cast<float>(step));
  for (int i = 0; i < n; ++i) m[i] = beta1 * m[i] + (1.0f - beta1) * grad[i];
  for (int i = 0; i < n; ++i) v[i] = beta2 * v[i] + (1.0f - beta2) * grad[i] * grad[i];
  for (int i = 0; i < n; ++i) {
    float mhat = m[i] / c1;
    float vhat = v[i] / c2;
    param[i] -= lr * mhat / (std::sqrt(vhat) + eps);
  }
}

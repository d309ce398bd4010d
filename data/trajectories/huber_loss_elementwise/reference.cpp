#include <cmath>

// Element-wise Huber loss: quadratic for residuals up to delta, linear beyond.
void huber_loss_elementwise(int n, const float* pred, const float* target, float delta, float* loss) {
  for (int i = 0; i < n; ++i) {
    float d = pred[i] - target[i];
    float a = std::fabs(d);
    if (a <= delta) {
      loss[i] = 0.5f * d * d;
    } else {
      loss[i] = delta * (a - 0.5f * delta);
    }
  }
}

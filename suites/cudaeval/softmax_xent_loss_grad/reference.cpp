#include <cmath>

// Forward and backward of the softmax cross-entropy loss over a batch, as a
// classifier's training step computes them. logits is batch x classes,
// row-major; labels[b] is the true class of sample b (0 <= labels[b] < classes).
//   loss = (1 / batch) * sum_b [ log(sum_c exp(z_bc)) - z_b,label ]
//   grad[b][c] = (softmax(z_b)[c] - [c == labels[b]]) / batch
// Each row is shifted by its maximum before exponentiating. The loss is
// accumulated in double and returned through `loss`.
void softmaxXentLossGrad(int batch, int classes, const float* logits, const int* labels,
                         float* grad, float& loss) {
  double total = 0.0;
  for (int b = 0; b < batch; ++b) {
    const float* z = logits + static_cast<long long>(b) * classes;
    float* g = grad + static_cast<long long>(b) * classes;
    float mx = z[0];
    for (int c = 1; c < classes; ++c) mx = z[c] > mx ? z[c] : mx;
    float sum = 0.0f;
    for (int c = 0; c < classes; ++c) sum += std::exp(z[c] - mx);
    const float log_sum = std::log(sum);
    total += static_cast<double>(log_sum - (z[labels[b]] - mx));
    for (int c = 0; c < classes; ++c) {
      const float p = std::exp(z[c] - mx) / sum;
      g[c] = (p - (c == labels[b] ? 1.0f : 0.0f)) / static_cast<float>(batch);
    }
  }
  loss = batch > 0 ? static_cast<float>(total / batch) : 0.0f;
}

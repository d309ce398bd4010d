#include <cmath>

// RMS normalisation of each row of a rows x d row-major float matrix (the
// normalisation layer of LLaMA-style transformers):
//   y[r][j] = x[r][j] / sqrt(mean_j(x[r][j]^2) + eps) * weight[j],
// with the mean of squares accumulated in float in column order.
void rmsNormRows(int rows, int d, const float* x, const float* weight, float eps, float* y) {
  long long off = 0;
  for (int r = 0; r < rows; ++r, off += d) {
    float mean_sq = 0.0f;
    for (int j = 0; j < d; ++j) mean_sq += x[off + j] * x[off + j];
    mean_sq /= static_cast<float>(d);
    const float inv_rms = 1.0f / std::sqrt(mean_sq + eps);
    for (int j = 0; j < d; ++j) y[off + j] = x[off + j] * inv_rms * weight[j];
  }
}

#include <cmath>

// Batch normalisation in inference mode over an NCHW float tensor: with the
// running statistics of channel c,
//   y[n][c][p] = gamma[c] * (x[n][c][p] - mean[c]) / sqrt(var[c] + eps) + beta[c]
// for every batch item n < batch, channel c < channels and pixel p < hw
// (hw = height * width). var[c] >= 0 and eps > 0.
void batchNormInference(int batch, int channels, int hw, const float* x, const float* mean,
                        const float* var, const float* gamma, const float* beta, float eps,
                        float* y) {
  for (int n = 0; n < batch; ++n) {
    for (int c = 0; c < channels; ++c) {
      const float inv_std = 1.0f / std::sqrt(var[c] + eps);
      const long long base = (static_cast<long long>(n) * channels + c) * hw;
      for (int p = 0; p < hw; ++p) {
        y[base + p] = gamma[c] * (x[base + p] - mean[c]) * inv_std + beta[c];
      }
    }
  }
}

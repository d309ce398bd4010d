#include <cmath>

// Group normalisation (Wu & He, 2018) of an NCHW float tensor: the channels
// of each sample are split into `groups` groups of channels / groups
// consecutive channels (channels % groups == 0). For sample n and group g the
// mean and population variance of its (channels / groups) * hw values are
// computed in double with the two-pass method, and every value of the group
// becomes
//   y = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c]
// evaluated in double and rounded to float (c is the value's channel).
void groupNorm(int batch, int channels, int hw, int groups, const float* x, const float* gamma,
               const float* beta, float eps, float* y) {
  const int cpg = channels / groups;
  const long long gsize = static_cast<long long>(cpg) * hw;
  for (int n = 0; n < batch; ++n) {
    for (int g = 0; g < groups; ++g) {
      const long long base =
          (static_cast<long long>(n) * channels + static_cast<long long>(g) * cpg) * hw;
      double sum = 0.0;
      for (long long t = 0; t < gsize; ++t) sum += x[base + t];
      const double mean = sum / static_cast<double>(gsize);
      double sq = 0.0;
      for (long long t = 0; t < gsize; ++t) {
        const double d = x[base + t] - mean;
        sq += d * d;
      }
      const double inv_std = 1.0 / std::sqrt(sq / static_cast<double>(gsize) + eps);
      for (int cc = 0; cc < cpg; ++cc) {
        const int c = g * cpg + cc;
        for (int p = 0; p < hw; ++p) {
          const long long i = base + static_cast<long long>(cc) * hw + p;
          y[i] = static_cast<float>((x[i] - mean) * inv_std * gamma[c] + beta[c]);
        }
      }
    }
  }
}

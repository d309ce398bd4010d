#include <cmath>

// Weighted Gaussian kernel density estimate at m query points from n weighted
// 2-D samples: density[q] = sum_j w[j] * exp(-|q - s_j|^2 / (2 h^2)).
void kde_gaussian_2d(int m, int n, const float* qx, const float* qy, const float* sx, const float* sy,
                     const float* w, float h, float* density) {
  float inv2h2 = 1.0f / (2.0f * h * h);
  for (int q = 0; q < m; ++q) {
    float acc = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = qx[q] - sx[j];
      float dy = qy[q] - sy[j];
      acc += w[j] * std::exp(-(dx * dx + dy * dy) * inv2h2);
    }
    density[q] = acc;
  }
}

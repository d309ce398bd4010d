#include <cmath>
#include <cstddef>

// 5x5 bilateral filter of a row-major w x h float image with replicated
// borders. Each tap at offset (dx, dy) in -2..2 with value v is weighted by
// exp(-(dx^2 + dy^2) / (2 sigma_s^2)) * exp(-(v - c)^2 / (2 sigma_r^2)), c the
// centre value; out = sum(weight * v) / sum(weight), taps in row-major order.
void bilateral5(int w, int h, float sigma_s, float sigma_r, const float* img, float* out) {
  const float inv_s = 1.0f / (2.0f * sigma_s * sigma_s);
  const float inv_r = 1.0f / (2.0f * sigma_r * sigma_r);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float c = img[(size_t)y * w + x];
      float num = 0.0f, den = 0.0f;
      for (int dy = -2; dy <= 2; ++dy) {
        int yy = y + dy;
        yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
        for (int dx = -2; dx <= 2; ++dx) {
          int xx = x + dx;
          xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
          float v = img[(size_t)yy * w + xx];
          float d = v - c;
          float wt = std::exp(-(float)(dx * dx + dy * dy) * inv_s) * std::exp(-(d * d) * inv_r);
          num += wt * v;
          den += wt;
        }
      }
      out[(size_t)y * w + x] = num / den;
    }
}

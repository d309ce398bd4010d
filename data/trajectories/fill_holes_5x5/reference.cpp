#include <cstdint>
#include <cstddef>
#include <vector>

// Hole filling by normalised convolution. Pass 1 accumulates, for every pixel,
// the weighted sum of the valid values in its 5 x 5 window (coordinates
// clamped to the image) and the sum of the weights of those valid pixels.
// Pass 2 keeps valid pixels and replaces each invalid one by the ratio of the
// two sums (0 when no pixel of its window is valid).
void fill_holes_5x5(int w, int h, const float* img, const uint8_t* valid, const float* weights, float* out) {
  std::vector<float> num((size_t)w * h), den((size_t)w * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float n = 0.0f, d = 0.0f;
      for (int dy = -2; dy <= 2; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy > h - 1 ? h - 1 : y + dy);
        for (int dx = -2; dx <= 2; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx > w - 1 ? w - 1 : x + dx);
          if (valid[yy * w + xx]) {
            float wt = weights[(dy + 2) * 5 + dx + 2];
            n += wt * img[yy * w + xx];
            d += wt;
          }
        }
      }
      num[y * w + x] = n;
      den[y * w + x] = d;
    }
  }
  for (int i = 0; i < w * h; ++i) out[i] = valid[i] ? img[i] : (den[i] > 0.0f ? num[i] / den[i] : 0.0f);
}

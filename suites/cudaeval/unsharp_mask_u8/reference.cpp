#include <cstdint>
#include <cstdlib>
#include <vector>

// Unsharp masking of an 8-bit grey w x h image (row-major), in two passes as
// image libraries do it:
//  1. blur: the 3x3 binomial filter [1 2 1; 2 4 2; 1 2 1] / 16 with
//     replicated borders, rounded: blur = (sum + 8) >> 4;
//  2. sharpen: with d = v - blur, pixels where |d| > threshold become
//     clamp(v + amount_q4 * d / 16, 0, 255) (integer division truncating
//     toward zero; amount_q4 is the amount in sixteenths), the others keep v.
// w, h >= 1.
void unsharpMaskU8(const uint8_t* in, uint8_t* out, int w, int h, int amount_q4, int threshold) {
  std::vector<uint8_t> blur(static_cast<size_t>(w) * h);
  const int weight[3] = {1, 2, 1};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int sum = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= h ? h - 1 : y + dy);
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= w ? w - 1 : x + dx);
          sum += weight[dy + 1] * weight[dx + 1] * in[yy * w + xx];
        }
      }
      blur[y * w + x] = static_cast<uint8_t>((sum + 8) >> 4);
    }
  }
  for (int i = 0; i < w * h; ++i) {
    int v = in[i];
    int d = v - blur[i];
    int s = v;
    if (std::abs(d) > threshold) {
      s = v + amount_q4 * d / 16;
      s = s < 0 ? 0 : (s > 255 ? 255 : s);
    }
    out[i] = static_cast<uint8_t>(s);
  }
}

#include <cstdint>
#include <cstdlib>
#include <vector>

// Unsharp masking of an 8-bit grey w x h image (row-major), in two passes as
// image libraries do it:
//  1. blur: the 3x3 binomial filter [1 2 1; 2 4 2; 1 2 1] / 16 with
//     replicated borders, rounded: blur = (sum + 8) >> 4, applied as a
//     [1 2 1] pass along the rows and one along the columns;
//  2. sharpen: with d = v - blur, pixels where |d| > threshold become
//     clamp(v + amount_q4 * d / 16, 0, 255) (integer division truncating
//     toward zero; amount_q4 is the amount in sixteenths), the others keep v.
// w, h >= 1.
static int EdgeIndex(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

void unsharpMaskU8(const uint8_t* in, uint8_t* out, int w, int h, int amount_q4, int threshold) {
  const size_t n = static_cast<size_t>(w) * h;
  std::vector<uint16_t> rows(n);
  for (int y = 0; y < h; ++y) {
    const uint8_t* line = in + static_cast<size_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      rows[static_cast<size_t>(y) * w + x] =
          static_cast<uint16_t>(line[EdgeIndex(x - 1, w)] + 2 * line[x] + line[EdgeIndex(x + 1, w)]);
    }
  }
  std::vector<uint8_t> blur(n);
  for (int y = 0; y < h; ++y) {
    const uint16_t* up = rows.data() + static_cast<size_t>(EdgeIndex(y - 1, h)) * w;
    const uint16_t* mid = rows.data() + static_cast<size_t>(y) * w;
    const uint16_t* down = rows.data() + static_cast<size_t>(EdgeIndex(y + 1, h)) * w;
    for (int x = 0; x < w; ++x) {
      blur[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>((up[x] + 2 * mid[x] + down[x] + 8) >> 4);
    }
  }
  for (size_t i = 0; i < n; ++i) {
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

#include <cstdint>

// Masked 3x3 box mean over an h x w grid of measurements: each output is the
// mean of the valid cells (valid != 0) in its 3x3 neighbourhood, cells outside
// the grid ignored, and 0 where no neighbour is valid. Typical of gap-filling
// on sensor grids with missing readings.
void masked_box_mean_3x3(int h, int w, const float* v, const uint8_t* valid, float* out) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float s = 0.0f;
      int c = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          int yy = y + dy, xx = x + dx;
          if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
          long long k = static_cast<long long>(yy) * w + xx;
          if (valid[k]) {
            s += v[k];
            ++c;
          }
        }
      }
      out[static_cast<long long>(y) * w + x] = c > 0 ? s / static_cast<float>(c) : 0.0f;
    }
  }
}

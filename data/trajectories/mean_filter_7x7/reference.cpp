#include <cstddef>

// 7x7 mean (box) filter of a row-major w x h float image with replicated
// borders: out[y][x] is the average of the 49 pixels with offsets -3..3 in
// both directions, coordinates clamped into the image.
void box_mean7(int w, int h, const float* img, float* out) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float s = 0.0f;
      for (int dy = -3; dy <= 3; ++dy) {
        int yy = y + dy;
        yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
        for (int dx = -3; dx <= 3; ++dx) {
          int xx = x + dx;
          xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
          s += img[(size_t)yy * w + xx];
        }
      }
      out[(size_t)y * w + x] = s / 49.0f;
    }
}

#include <cstdint>

// Local contrast of an 8-bit image: out[y][x] is the largest minus the
// smallest value in the 5 x 5 window centred on (x, y), with coordinates
// clamped to the image.
void local_range_5x5(int width, int height, const uint8_t* img, uint8_t* out) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int lo = 255, hi = 0;
      for (int dy = -2; dy <= 2; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
        for (int dx = -2; dx <= 2; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
          int v = img[yy * width + xx];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
      out[y * width + x] = (uint8_t)(hi - lo);
    }
  }
}

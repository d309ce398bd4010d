#include <cstdint>

// 3x3 median filter of an 8-bit grayscale image (row-major, width x height).
// Neighbours outside the image are replaced by the nearest edge pixel.
void median_3x3_u8(const uint8_t* src, uint8_t* dst, int width, int height) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t win[9];
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
          win[n++] = src[yy * width + xx];
        }
      }
      // insertion sort of the window, then take the middle element
      for (int i = 1; i < 9; ++i) {
        uint8_t v = win[i];
        int j = i - 1;
        while (j >= 0 && win[j] > v) {
          win[j + 1] = win[j];
          --j;
        }
        win[j + 1] = v;
      }
      dst[y * width + x] = win[4];
    }
  }
}

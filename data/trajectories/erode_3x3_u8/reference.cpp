#include <cstdint>

// Grayscale erosion with a 3x3 square structuring element: each output pixel is
// the minimum of the input pixels in its 3x3 window that lie inside the image.
void erode_3x3_u8(int width, int height, const uint8_t* src, uint8_t* dst) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t m = 255;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          uint8_t v = src[yy * width + xx];
          if (v < m) m = v;
        }
      }
      dst[y * width + x] = m;
    }
  }
}

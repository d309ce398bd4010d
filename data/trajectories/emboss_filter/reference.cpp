#include <cstdint>

// Emboss filter of an 8-bit grayscale image (row-major, width x height): a 3x3
// directional kernel
//   -2 -1  0
//   -1  1  1
//    0  1  2
// plus a bias of 128, clamped to [0, 255]. Neighbours outside the image are
// replaced by the nearest edge pixel.
static const int kEmboss[3][3] = {{-2, -1, 0}, {-1, 1, 1}, {0, 1, 2}};

void emboss_u8(const uint8_t* in, uint8_t* out, int width, int height) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int acc = 128;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
          acc += kEmboss[dy + 1][dx + 1] * in[yy * width + xx];
        }
      }
      out[y * width + x] = (uint8_t)(acc < 0 ? 0 : (acc > 255 ? 255 : acc));
    }
  }
}

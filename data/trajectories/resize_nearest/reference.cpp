#include <cstdint>

// Nearest-neighbour resize of an 8-bit image from sw x sh to dw x dh: output
// pixel (x, y) copies source pixel (x * sw / dw, y * sh / dh) (integer division).
void resize_nearest_u8(const uint8_t* src, int sw, int sh, uint8_t* dst, int dw, int dh) {
  for (int y = 0; y < dh; ++y) {
    int sy = (int)((long long)y * sh / dh);
    for (int x = 0; x < dw; ++x) {
      int sx = (int)((long long)x * sw / dw);
      dst[(long long)y * dw + x] = src[(long long)sy * sw + sx];
    }
  }
}

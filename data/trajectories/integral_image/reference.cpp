#include <cstddef>
#include <cstdint>
#include <vector>

// Integral image (summed-area table) of an 8-bit image: sat[y][x] is the sum of
// all pixels img[y'][x'] with y' <= y and x' <= x. Sums are kept in 32-bit
// unsigned integers (arithmetic modulo 2^32).
void integral_image_u32(const std::vector<uint8_t>& img, std::vector<uint32_t>& sat, int width, int height) {
  for (int y = 0; y < height; ++y) {
    uint32_t row = 0;
    for (int x = 0; x < width; ++x) {
      row += img[(size_t)y * width + x];
      sat[(size_t)y * width + x] = row + (y > 0 ? sat[(size_t)(y - 1) * width + x] : 0u);
    }
  }
}

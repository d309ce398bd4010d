#include <cstdint>
#include <vector>

// Grayscale dilation with a 3x3 square structuring element: every output pixel
// is the maximum of the input pixels in its 3x3 window, considering only
// positions inside the image.
void dilate_3x3(const std::vector<uint8_t>& img, std::vector<uint8_t>& out, int width, int height) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t m = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          uint8_t v = img[yy * width + xx];
          if (v > m) m = v;
        }
      }
      out[y * width + x] = m;
    }
  }
}

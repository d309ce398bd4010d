#include <cmath>
#include <cstdint>
#include <vector>

// Sobel gradient magnitude of an 8-bit grayscale image (rows x cols,
// row-major). Gx and Gy are the standard 3x3 Sobel responses, computed in
// integers with pixels outside the image taken as 0; the output is
// sqrt(Gx^2 + Gy^2) as a float, one per pixel.
void sobelEdgeMagnitude(std::vector<uint8_t> const& image, std::vector<float>& magnitude, int rows, int cols) {
  auto px = [&](int r, int c) -> int {
    if (r < 0 || r >= rows || c < 0 || c >= cols) return 0;
    return image[r * cols + c];
  };
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      int gx = (px(y - 1, x + 1) + 2 * px(y, x + 1) + px(y + 1, x + 1)) -
               (px(y - 1, x - 1) + 2 * px(y, x - 1) + px(y + 1, x - 1));
      int gy = (px(y + 1, x - 1) + 2 * px(y + 1, x) + px(y + 1, x + 1)) -
               (px(y - 1, x - 1) + 2 * px(y - 1, x) + px(y - 1, x + 1));
      magnitude[y * cols + x] = std::sqrt(static_cast<float>(gx * gx + gy * gy));
    }
  }
}

#include <cstddef>
#include <vector>

// Rotates a float image (row-major, width x height) by 90 degrees clockwise.
// The result has `height` columns and `width` rows: source pixel (x, y) lands in
// row x, column height - 1 - y.
void rotate_cw90(const std::vector<float>& src, std::vector<float>& dst, int width, int height) {
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) dst[(size_t)x * height + (height - 1 - y)] = src[(size_t)y * width + x];
}

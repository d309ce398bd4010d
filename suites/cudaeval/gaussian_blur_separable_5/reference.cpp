#include <cstddef>
#include <vector>

// 5x5 Gaussian blur of a width x height grayscale float image (row-major),
// applied separably with the binomial taps {1, 4, 6, 4, 1} / 16: first along
// rows into a temporary image, then along columns. Coordinates outside the
// image are clamped to the nearest edge pixel.
static inline int clampIndex(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

void gaussianBlur5Clamp(int width, int height, const float* src, float* dst) {
  const float w[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
  std::vector<float> tmp(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float acc = 0.0f;
      for (int k = 0; k < 5; ++k) acc += w[k] * src[y * width + clampIndex(x + k - 2, width - 1)];
      tmp[y * width + x] = acc;
    }
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float acc = 0.0f;
      for (int k = 0; k < 5; ++k) acc += w[k] * tmp[clampIndex(y + k - 2, height - 1) * width + x];
      dst[y * width + x] = acc;
    }
  }
}

#include <cstddef>
#include <vector>

// Unsharp masking of a single-channel float image: blur with the 3x3 binomial
// kernel [1 2 1; 2 4 2; 1 2 1] / 16 (edge pixels replicated), then push every
// pixel away from its blurred value: out = img + amount * (img - blur).
static const float kBinomial3[3][3] = {{1.0f, 2.0f, 1.0f}, {2.0f, 4.0f, 2.0f}, {1.0f, 2.0f, 1.0f}};

void unsharp_mask(int width, int height, float amount, const float* img, float* out) {
  std::vector<float> blur((size_t)width * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float s = 0.0f;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
          s += kBinomial3[dy + 1][dx + 1] * img[yy * width + xx];
        }
      }
      blur[y * width + x] = s * (1.0f / 16.0f);
    }
  }
  for (int i = 0; i < width * height; ++i) out[i] = img[i] + amount * (img[i] - blur[i]);
}

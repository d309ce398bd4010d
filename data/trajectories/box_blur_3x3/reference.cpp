#include <vector>

// 3x3 box blur of a single-channel float image (row-major, width x height).
// Pixels outside the image are replaced by the nearest edge pixel.
void box_blur_3x3(const std::vector<float>& img, std::vector<float>& out, int width, int height) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float sum = 0.0f;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy;
        if (yy < 0) yy = 0;
        if (yy >= height) yy = height - 1;
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx;
          if (xx < 0) xx = 0;
          if (xx >= width) xx = width - 1;
          sum += img[yy * width + xx];
        }
      }
      out[y * width + x] = sum / 9.0f;
    }
  }
}

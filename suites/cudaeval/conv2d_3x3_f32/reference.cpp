#include <vector>

// 3x3 filter (cross-correlation, as in CNN layers) over a height x width
// single-channel image stored row-major. weights[(dy + 1) * 3 + (dx + 1)]
// multiplies the pixel at offset (dy, dx); pixels outside the image are zero.
// The output has the same size as the input.
void filter3x3ZeroPad(std::vector<float> const& image, std::vector<float> const& weights,
                      std::vector<float>& result, int height, int width) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float acc = 0.0f;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          int yy = y + dy, xx = x + dx;
          if (yy >= 0 && yy < height && xx >= 0 && xx < width) {
            acc += weights[(dy + 1) * 3 + (dx + 1)] * image[yy * width + xx];
          }
        }
      }
      result[y * width + x] = acc;
    }
  }
}

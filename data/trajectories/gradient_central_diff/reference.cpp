// Gradient of a scalar image by finite differences: central differences in the
// interior, one-sided differences on the first and last column (row), and 0
// along an axis of length 1. Row-major, x fastest.
void central_gradient(int width, int height, const float* f, float* gx, float* gy) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int k = y * width + x;
      float dx, dy;
      if (width == 1) dx = 0.0f;
      else if (x == 0) dx = f[k + 1] - f[k];
      else if (x == width - 1) dx = f[k] - f[k - 1];
      else dx = (f[k + 1] - f[k - 1]) * 0.5f;
      if (height == 1) dy = 0.0f;
      else if (y == 0) dy = f[k + width] - f[k];
      else if (y == height - 1) dy = f[k] - f[k - width];
      else dy = (f[k + width] - f[k - width]) * 0.5f;
      gx[k] = dx;
      gy[k] = dy;
    }
  }
}

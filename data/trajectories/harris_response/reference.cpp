#include <cstddef>
#include <vector>

// Harris corner response of a float image (row-major, width x height):
//  1. Sobel gradients gx, gy (edge pixels replicated outside the image);
//  2. structure-tensor entries Ixx = gx^2, Iyy = gy^2, Ixy = gx*gy summed over
//     the 3x3 window around each pixel (window positions clamped to the image);
//  3. R = det(M) - k * trace(M)^2 with M = [Sxx Sxy; Sxy Syy].
static inline float px(const std::vector<float>& img, int width, int height, int x, int y) {
  x = x < 0 ? 0 : (x >= width ? width - 1 : x);
  y = y < 0 ? 0 : (y >= height ? height - 1 : y);
  return img[(size_t)y * width + x];
}

void harris_corner_response(const std::vector<float>& img, std::vector<float>& R, int width, int height, float k) {
  size_t n = (size_t)width * height;
  std::vector<float> ixx(n), iyy(n), ixy(n);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float gx = (px(img, width, height, x + 1, y - 1) + 2.0f * px(img, width, height, x + 1, y) +
                  px(img, width, height, x + 1, y + 1)) -
                 (px(img, width, height, x - 1, y - 1) + 2.0f * px(img, width, height, x - 1, y) +
                  px(img, width, height, x - 1, y + 1));
      float gy = (px(img, width, height, x - 1, y + 1) + 2.0f * px(img, width, height, x, y + 1) +
                  px(img, width, height, x + 1, y + 1)) -
                 (px(img, width, height, x - 1, y - 1) + 2.0f * px(img, width, height, x, y - 1) +
                  px(img, width, height, x + 1, y - 1));
      size_t i = (size_t)y * width + x;
      ixx[i] = gx * gx;
      iyy[i] = gy * gy;
      ixy[i] = gx * gy;
    }
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
      for (int dy = -1; dy <= 1; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
        for (int dx = -1; dx <= 1; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
          size_t q = (size_t)yy * width + xx;
          sxx += ixx[q];
          syy += iyy[q];
          sxy += ixy[q];
        }
      }
      float det = sxx * syy - sxy * sxy;
      float tr = sxx + syy;
      R[(size_t)y * width + x] = det - k * tr * tr;
    }
  }
}

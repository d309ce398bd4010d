#include <cmath>
#include <vector>

// Doubles the resolution of a float image with bilinear interpolation using
// pixel-centre alignment: output pixel X samples the source at
// sx = (X + 0.5) / 2 - 0.5, clamped to the image. dst is (2*width) x (2*height).
void upsample_bilinear_2x(const std::vector<float>& src, int width, int height, std::vector<float>& dst) {
  int ow = 2 * width, oh = 2 * height;
  for (int Y = 0; Y < oh; ++Y) {
    float sy = (Y + 0.5f) * 0.5f - 0.5f;
    if (sy < 0.0f) sy = 0.0f;
    if (sy > height - 1) sy = (float)(height - 1);
    int y0 = (int)std::floor(sy);
    int y1 = y0 + 1 < height ? y0 + 1 : height - 1;
    float fy = sy - y0;
    for (int X = 0; X < ow; ++X) {
      float sx = (X + 0.5f) * 0.5f - 0.5f;
      if (sx < 0.0f) sx = 0.0f;
      if (sx > width - 1) sx = (float)(width - 1);
      int x0 = (int)std::floor(sx);
      int x1 = x0 + 1 < width ? x0 + 1 : width - 1;
      float fx = sx - x0;
      float top = (1.0f - fx) * src[y0 * width + x0] + fx * src[y0 * width + x1];
      float bot = (1.0f - fx) * src[y1 * width + x0] + fx * src[y1 * width + x1];
      dst[Y * ow + X] = (1.0f - fy) * top + fy * bot;
    }
  }
}

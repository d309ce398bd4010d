#include <cmath>

// Samples a float image (row-major, width x height) at npts arbitrary points with
// bilinear interpolation. Coordinates are in pixel units and are clamped to
// [0, width-1] x [0, height-1] before interpolation.
void sample_bilinear(const float* img, int width, int height, int npts, const float* px, const float* py, float* out) {
  for (int i = 0; i < npts; ++i) {
    float x = px[i], y = py[i];
    x = x < 0.0f ? 0.0f : (x > width - 1 ? (float)(width - 1) : x);
    y = y < 0.0f ? 0.0f : (y > height - 1 ? (float)(height - 1) : y);
    int x0 = (int)std::floor(x), y0 = (int)std::floor(y);
    int x1 = x0 + 1 < width ? x0 + 1 : width - 1;
    int y1 = y0 + 1 < height ? y0 + 1 : height - 1;
    float fx = x - x0, fy = y - y0;
    float top = (1.0f - fx) * img[(long)y0 * width + x0] + fx * img[(long)y0 * width + x1];
    float bot = (1.0f - fx) * img[(long)y1 * width + x0] + fx * img[(long)y1 * width + x1];
    out[i] = (1.0f - fy) * top + fy * bot;
  }
}

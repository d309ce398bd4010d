#include <cstddef>

// Causal second-order IIR (biquad) filter applied independently to every row
// of a row-major w x h float image, left to right:
//   y[x] = b0*v[x] + b1*v[x-1] + b2*v[x-2] - a1*y[x-1] - a2*y[x-2]
// with coef = {b0, b1, b2, a1, a2} and zero history before the first column.
void iir_biquad_rows(int w, int h, const float* img, const float* coef, float* out) {
  for (int r = 0; r < h; ++r) {
    const float* v = img + (size_t)r * w;
    float* y = out + (size_t)r * w;
    float x1 = 0.0f, x2 = 0.0f, y1 = 0.0f, y2 = 0.0f;
    for (int x = 0; x < w; ++x) {
      float cur = coef[0] * v[x] + coef[1] * x1 + coef[2] * x2 - coef[3] * y1 - coef[4] * y2;
      x2 = x1;
      x1 = v[x];
      y2 = y1;
      y1 = cur;
      y[x] = cur;
    }
  }
}

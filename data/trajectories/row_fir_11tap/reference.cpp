#include <cstddef>

// Horizontal 11-tap FIR filter applied to every row of a row-major w x h
// float image: out[y][x] = sum_{k=0..10} taps[k] * img[y][clamp(x + k - 5)],
// edge pixels replicated, taps accumulated in increasing k.
void fir_rows11(int w, int h, const float* img, const float* taps, float* out) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float acc = 0.0f;
      for (int k = 0; k < 11; ++k) {
        int xx = x + k - 5;
        xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
        acc += taps[k] * img[(size_t)y * w + xx];
      }
      out[(size_t)y * w + x] = acc;
    }
}

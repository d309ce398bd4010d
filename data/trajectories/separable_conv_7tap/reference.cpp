#include <cstddef>
#include <vector>

// Separable 7x7 filter of a float image (row-major, w x h): a horizontal pass
// with taps kx followed by a vertical pass with taps ky, both centred (offsets
// -3..3) and both replicating edge pixels outside the image.
void separable_filter7(int w, int h, const float* img, const float* kx, const float* ky, float* out) {
  std::vector<float> tmp((size_t)w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float acc = 0.0f;
      for (int k = 0; k < 7; ++k) {
        int xx = x + k - 3;
        xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
        acc += kx[k] * img[(size_t)y * w + xx];
      }
      tmp[(size_t)y * w + x] = acc;
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float acc = 0.0f;
      for (int k = 0; k < 7; ++k) {
        int yy = y + k - 3;
        yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
        acc += ky[k] * tmp[(size_t)yy * w + x];
      }
      out[(size_t)y * w + x] = acc;
    }
}

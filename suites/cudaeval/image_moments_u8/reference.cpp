#include <cstdint>

// Raw spatial moments of an 8-bit grey w x h image (row-major), the inputs of
// centroid, orientation and Hu-moment computations in blob analysis:
//   m[0] = sum v,      m[1] = sum x v,    m[2] = sum y v,
//   m[3] = sum x y v,  m[4] = sum x^2 v,  m[5] = sum y^2 v,
// over all pixels (x = column, y = row, v = pixel value), exactly in 64-bit
// integers (w, h <= 8192 keeps them in range). w, h >= 1.
void imageMomentsU8(const uint8_t* img, int w, int h, int64_t* m) {
  int64_t m00 = 0, m10 = 0, m01 = 0, m11 = 0, m20 = 0, m02 = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int64_t v = img[static_cast<int64_t>(y) * w + x];
      m00 += v;
      m10 += x * v;
      m01 += y * v;
      m11 += static_cast<int64_t>(x) * y * v;
      m20 += static_cast<int64_t>(x) * x * v;
      m02 += static_cast<int64_t>(y) * y * v;
    }
  }
  m[0] = m00;
  m[1] = m10;
  m[2] = m01;
  m[3] = m11;
  m[4] = m20;
  m[5] = m02;
}

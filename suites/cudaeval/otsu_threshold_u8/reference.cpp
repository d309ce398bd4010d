#include <cstdint>

// Otsu's global threshold of an 8-bit grey image of n pixels, as
// binarisation code (document scanning, microscopy masks) computes it: build
// the 256-bin histogram, then pick the threshold t (class 0 = values <= t)
// maximising the between-class variance w0 * w1 * (m0 - m1)^2 (counts w,
// class means m, in double, in exactly this order of operations), over the
// t with both classes non-empty; ties go to the smallest t, and 0 is
// returned when no t splits the image (n == 0 or a single grey level).
int otsuThreshold(const uint8_t* img, int n) {
  int64_t hist[256] = {0};
  for (int i = 0; i < n; ++i) ++hist[img[i]];
  int64_t sum = 0;
  for (int t = 0; t < 256; ++t) sum += t * hist[t];
  int64_t w0 = 0, sum0 = 0;
  double best = -1.0;
  int threshold = 0;
  for (int t = 0; t < 256; ++t) {
    w0 += hist[t];
    if (w0 == 0) continue;
    int64_t w1 = n - w0;
    if (w1 == 0) break;
    sum0 += t * hist[t];
    double m0 = static_cast<double>(sum0) / static_cast<double>(w0);
    double m1 = static_cast<double>(sum - sum0) / static_cast<double>(w1);
    double between = static_cast<double>(w0) * static_cast<double>(w1) * (m0 - m1) * (m0 - m1);
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

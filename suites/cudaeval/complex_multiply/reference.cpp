#include <complex>
#include <cstdint>

// Elementwise product of two complex signals (as in applying a filter in the
// frequency domain): c[i] = a[i] * b[i] for i in [0, n).
void complexPointwiseProduct(int64_t n, const std::complex<float>* a, const std::complex<float>* b,
                             std::complex<float>* c) {
  for (int64_t i = 0; i < n; ++i) {
    c[i] = a[i] * b[i];
  }
}

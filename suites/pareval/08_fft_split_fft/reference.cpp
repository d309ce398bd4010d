#include <cmath>
#include <complex>
#include <cstddef>
#include <utility>
#include <vector>

// Discrete Fourier transform X[j] = sum_k x[k] exp(-2 pi i j k / n), in place.
// Powers of two: iterative radix-2 Cooley-Tukey (bit-reversal permutation, then
// butterflies) with a twiddle table taken from cos/sin directly (no recurrence).
// Any other length: the direct O(n^2) sum with the twiddle index (j k) mod n.
static inline std::complex<double> cmul(std::complex<double> a, std::complex<double> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

static void fftInPlace(std::vector<std::complex<double>> &a) {
  const size_t n = a.size();
  if (n <= 1) return;
  const double kTwoPi = 6.283185307179586476925286766559;
  if ((n & (n - 1)) == 0) {
    for (size_t k = 1, j = 0; k < n; ++k) {
      size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (k < j) std::swap(a[k], a[j]);
    }
    std::vector<std::complex<double>> w(n / 2);
    for (size_t k = 0; k < n / 2; ++k) {
      const double ang = kTwoPi * (double)k / (double)n;
      w[k] = {std::cos(ang), -std::sin(ang)};
    }
    for (size_t len = 2; len <= n; len <<= 1) {
      const size_t half = len / 2, step = n / len;
      for (size_t s = 0; s < n; s += len) {
        for (size_t k = 0; k < half; ++k) {
          const std::complex<double> u = a[s + k];
          const std::complex<double> v = cmul(a[s + k + half], w[k * step]);
          a[s + k] = u + v;
          a[s + k + half] = u - v;
        }
      }
    }
  } else {
    std::vector<std::complex<double>> w(n), in(a);
    for (size_t m = 0; m < n; ++m) {
      const double ang = kTwoPi * (double)m / (double)n;
      w[m] = {std::cos(ang), -std::sin(ang)};
    }
    for (size_t j = 0; j < n; ++j) {
      std::complex<double> sum = 0.0;
      size_t m = 0;  // (j * k) mod n
      for (size_t k = 0; k < n; ++k) {
        sum += cmul(in[k], w[m]);
        m += j;
        if (m >= n) m -= n;
      }
      a[j] = sum;
    }
  }
}

// Forward transform of x; the real parts go to r and the imaginary parts to i.
void fft(std::vector<std::complex<double>> const& x, std::vector<double> &r, std::vector<double> &i) {
  std::vector<std::complex<double>> a(x);
  fftInPlace(a);
  for (size_t k = 0; k < a.size(); ++k) {
    r[k] = a[k].real();
    i[k] = a[k].imag();
  }
}

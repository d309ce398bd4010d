#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

// Direct discrete Fourier transform of a real signal:
// output[j] = sum_k x[k] exp(-2 pi i j k / n). The twiddle factors come from a
// table of the n roots of unity indexed by (j k) mod n, so every angle is exact
// up to the rounding of cos/sin.
void dft(std::vector<double> const& x, std::vector<std::complex<double>> &output) {
  const size_t n = x.size();
  const double kTwoPi = 6.283185307179586476925286766559;
  std::vector<double> wc(n), ws(n);
  for (size_t m = 0; m < n; ++m) {
    const double ang = kTwoPi * (double)m / (double)n;
    wc[m] = std::cos(ang);
    ws[m] = -std::sin(ang);
  }
  for (size_t j = 0; j < n; ++j) {
    double re = 0.0, im = 0.0;
    size_t m = 0;  // (j * k) mod n
    for (size_t k = 0; k < n; ++k) {
      re += x[k] * wc[m];
      im += x[k] * ws[m];
      m += j;
      if (m >= n) m -= n;
    }
    output[j] = std::complex<double>(re, im);
  }
}

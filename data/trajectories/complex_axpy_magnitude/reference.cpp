#include <complex>

// Complex AXPY followed by a magnitude pass: y <- a * x + y with the complex
// scalar a = ar + i ai, then mag[i] = |y[i]|.
void complexAxpyMagnitude(int n, float ar, float ai, const std::complex<float>* x,
                          std::complex<float>* y, float* mag) {
  const std::complex<float> a(ar, ai);
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
  for (int i = 0; i < n; ++i) mag[i] = std::abs(y[i]);
}

// Rational sample-rate conversion by L/M with an FIR low-pass filter, written
// the direct way: the input is upsampled by L (L - 1 zeros after every
// sample), filtered with the T taps h, and every M-th sample is kept:
//   y[k] = sum_{j=0}^{T-1} h[j] * u[k*M - j],
//   u[m] = x[m / L] when m >= 0, m % L == 0 and m / L < n, else 0,
// summed in float in order of increasing j. There are (n*L + M - 1) / M
// outputs. n, L, M, T >= 1 (the filter gain L is folded into h by the caller).
void polyphaseResample(const float* x, int n, const float* h, int T, int L, int M, float* y) {
  int nout = (n * L + M - 1) / M;
  for (int k = 0; k < nout; ++k) {
    float acc = 0.0f;
    long base = static_cast<long>(k) * M;
    for (int j = 0; j < T; ++j) {
      long m = base - j;
      if (m < 0) break;
      if (m % L != 0) continue;
      long i = m / L;
      if (i < n) acc += h[j] * x[i];
    }
    y[k] = acc;
  }
}

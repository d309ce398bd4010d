// Band energies of a signal through a bank of FIR band-pass filters, as an
// audio analyser or a vibration monitor computes them: filter b has the T
// taps h[b*T .. b*T+T-1]; its output at sample i (only where the filter
// fully overlaps the signal, i = T-1 .. n-1) is
//   y_b[i] = sum_{j=0}^{T-1} h[b*T + j] * x[i - j]   (float, increasing j),
// and energy[b] = sum_i y_b[i]^2, accumulated in double. With n < T every
// energy is 0. B, T >= 1, n >= 0.
void firBankEnergy(const float* x, int n, const float* h, int B, int T, double* energy) {
  for (int b = 0; b < B; ++b) {
    const float* hb = h + static_cast<long>(b) * T;
    double e = 0.0;
    for (int i = T - 1; i < n; ++i) {
      float y = 0.0f;
      for (int j = 0; j < T; ++j) y += hb[j] * x[i - j];
      e += static_cast<double>(y) * y;
    }
    energy[b] = e;
  }
}

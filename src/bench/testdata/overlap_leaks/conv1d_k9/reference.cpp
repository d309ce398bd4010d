// Centred 9-tap FIR filter (1-D convolution) of a float signal:
//   y[i] = sum_{k=0..8} taps[k] * x[i + k - 4],
// with samples outside [0, n) treated as zero.
void fir9_filter(int n, const float* x, const float* taps, float* y) {
  for (int i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int k = 0; k < 9; ++k) {
      int j = i + k - 4;
      if (j >= 0 && j < n) acc += taps[k] * x[j];
    }
    y[i] = acc;
  }
}

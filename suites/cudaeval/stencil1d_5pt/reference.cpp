// Weighted 5-point stencil on a 1-D signal:
//   out[i] = w[0]*in[i-2] + w[1]*in[i-1] + w[2]*in[i] + w[3]*in[i+1] + w[4]*in[i+2]
// Neighbours outside [0, n) are treated as zero (zero padding), so the first
// and last two outputs use only the taps that fall inside the array.
void stencil1d5(int n, const float* weights, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int k = -2; k <= 2; ++k) {
      int j = i + k;
      if (j >= 0 && j < n) sum += weights[k + 2] * in[j];
    }
    out[i] = sum;
  }
}

// Template matching by sum of squared differences. For every position i at
// which the 16-sample template fits inside the signal (0 <= i <= n - 16):
//   score[i] = sum_{k=0..15} (x[i + k] - tmpl[k])^2.
void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  for (int i = 0; i + 16 <= n; ++i) {
    float s = 0.0f;
    for (int k = 0; k < 16; ++k) {
      float d = x[i + k] - tmpl[k];
      s += d * d;
    }
    score[i] = s;
  }
}

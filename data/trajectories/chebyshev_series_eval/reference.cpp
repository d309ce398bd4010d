// Evaluates the Chebyshev series sum_{k=0}^{11} coef[k] * T_k(t) at every point,
// where t maps x from the interval [lo, hi] onto [-1, 1]; Clenshaw's recurrence.
void chebyshevSeries(int n, const float* x, const float* coef, float lo, float hi, float* y) {
  for (int i = 0; i < n; ++i) {
    float t = (2.0f * x[i] - lo - hi) / (hi - lo);
    float b1 = 0.0f, b2 = 0.0f;
    for (int k = 11; k >= 1; --k) {
      float b0 = coef[k] + 2.0f * t * b1 - b2;
      b2 = b1;
      b1 = b0;
    }
    y[i] = coef[0] + t * b1 - b2;
  }
}

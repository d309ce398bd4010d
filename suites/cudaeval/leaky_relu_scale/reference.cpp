// Scaled leaky ReLU: y[i] = scale * x[i] for positive inputs and
// scale * alpha * x[i] otherwise.
void leakyReluScale(int n, float scale, float alpha, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    y[i] = scale * (v > 0.0f ? v : alpha * v);
  }
}

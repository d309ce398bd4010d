void box_sum(int n, int radius, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int j = i - radius; j <= i + radius; ++j) {
      if (j >= 0 && j < n) s += x[j];
    }
    y[i] = s;
  }
}

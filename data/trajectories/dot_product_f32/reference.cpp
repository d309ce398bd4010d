// Inner product of two float vectors, accumulated in double and returned as float.
float innerProduct(int n, const float* x, const float* y) {
  double acc = 0.0;
  for (int i = 0; i < n; ++i) {
    acc += static_cast<double>(x[i]) * static_cast<double>(y[i]);
  }
  return static_cast<float>(acc);
}

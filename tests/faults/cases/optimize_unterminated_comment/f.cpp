void scale(float* x, int n) {
  /* double each one
  for (int i = 0; i < n; ++i) x[i] *= 2;
}

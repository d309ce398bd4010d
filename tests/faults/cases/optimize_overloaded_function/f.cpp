void scale(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2;
}
void scale(double* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2;
}

// y = a * x + y, in two precisions.
void saxpy(int n, float a, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
void saxpy(int n, double a, const double* x, double* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

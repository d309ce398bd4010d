// Inclusive running maximum: y[i] = max(x[0], ..., x[i]).
void runningMaximum(int n, const int* x, int* y) {
  if (n <= 0) return;
  int m = x[0];
  for (int i = 0; i < n; ++i) {
    if (x[i] > m) m = x[i];
    y[i] = m;
  }
}

// True if any element of x is strictly negative.
bool containsNegative(int n, const float* x) {
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0.0f) return true;
  }
  return false;
}

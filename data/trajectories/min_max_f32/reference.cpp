// Smallest and largest element of a non-empty float array.
void findMinMax(int n, const float* x, float& lo, float& hi) {
  float mn = x[0];
  float mx = x[0];
  for (int i = 1; i < n; ++i) {
    if (x[i] < mn) mn = x[i];
    if (x[i] > mx) mx = x[i];
  }
  lo = mn;
  hi = mx;
}

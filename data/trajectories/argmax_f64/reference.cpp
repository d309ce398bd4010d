// Index of the largest element of a non-empty double array; the first such
// index if the maximum occurs more than once.
int indexOfMaximum(int n, const double* x) {
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (x[i] > x[best]) best = i;
  }
  return best;
}

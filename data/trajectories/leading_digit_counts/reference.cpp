// First-digit statistics (as used in Benford's-law checks): counts[d - 1] is the
// number of positive values whose leading decimal digit is d; values <= 0 are
// ignored.
void leadingDigitCounts(int n, const int* x, int* counts) {
  for (int d = 0; d < 9; ++d) counts[d] = 0;
  for (int i = 0; i < n; ++i) {
    int v = x[i];
    if (v <= 0) continue;
    while (v >= 10) v /= 10;
    counts[v - 1] += 1;
  }
}

// Number of elements of x equal to zero.
int countZeroEntries(int n, const int* x) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] == 0) ++count;
  }
  return count;
}

// Stable partition around a pivot: out receives the elements of x that are
// smaller than pivot, in their original order, followed by all the others,
// also in their original order. Returns the number of smaller elements.
int stablePartitionBelow(int n, const int* x, int pivot, int* out) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < pivot) out[k++] = x[i];
  }
  int below = k;
  for (int i = 0; i < n; ++i) {
    if (!(x[i] < pivot)) out[k++] = x[i];
  }
  return below;
}

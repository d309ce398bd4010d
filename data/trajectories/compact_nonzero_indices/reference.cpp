// Stream compaction: writes the positions of the non-zero elements of x, in
// increasing order, to the front of idx, fills the rest of idx with -1, and
// returns how many positions were written.
int gatherNonzeroPositions(int n, const float* x, int* idx) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] != 0.0f) idx[count++] = i;
  }
  for (int i = count; i < n; ++i) idx[i] = -1;
  return count;
}

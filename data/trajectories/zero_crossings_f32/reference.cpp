// Zero-crossing count of a sampled signal: the number of adjacent pairs
// (x[i], x[i+1]) where one sample is negative and the other is not.
int countSignChanges(int n, const float* x) {
  int count = 0;
  for (int i = 0; i + 1 < n; ++i) {
    bool a = x[i] < 0.0f;
    bool b = x[i + 1] < 0.0f;
    if (a != b) ++count;
  }
  return count;
}

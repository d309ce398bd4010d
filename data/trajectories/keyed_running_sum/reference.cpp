// Running sum within runs of equal keys: a run is a maximal stretch of
// consecutive equal keys (as in data grouped by key); out[i] is the sum of
// values from the start of i's run up to i.
void keyedRunningSum(int n, const int* keys, const int* values, int* out) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || keys[i] != keys[i - 1]) acc = 0;
    acc += values[i];
    out[i] = acc;
  }
}

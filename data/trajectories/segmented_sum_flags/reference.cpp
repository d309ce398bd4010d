// Segmented inclusive sum: heads[i] != 0 marks the first element of a new
// segment (element 0 always starts one); out[i] is the sum of values from the
// start of i's segment up to i.
void segmentedInclusiveSum(int n, const int* values, const int* heads, int* out) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || heads[i] != 0) {
      acc = values[i];
    } else {
      acc += values[i];
    }
    out[i] = acc;
  }
}

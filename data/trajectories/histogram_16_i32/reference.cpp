// Counts how many keys fall in each of 16 bins (every key is in 0..15).
void histogram16Bins(int n, const int* keys, int* bins) {
  for (int b = 0; b < 16; ++b) bins[b] = 0;
  for (int i = 0; i < n; ++i) {
    bins[keys[i]] += 1;
  }
}

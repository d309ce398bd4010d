// Stable counting-sort ranks of keys in 0..255: ranks[i] is the position
// element i would take in a stable ascending sort of keys (all smaller keys
// first, then equal keys in input order).
void stableKeyRanks(int n, const int* keys, int* ranks) {
  int count[256] = {0};
  for (int i = 0; i < n; ++i) count[keys[i]] += 1;
  int start[256];
  int run = 0;
  for (int k = 0; k < 256; ++k) {
    start[k] = run;
    run += count[k];
  }
  for (int i = 0; i < n; ++i) ranks[i] = start[keys[i]]++;
}

#include <cstdint>

// Total score of a sequence of codes under a lookup table (e.g. a per-token or
// per-symbol cost table): the sum of table[codes[i]], exact in 64 bits.
// Every code is in [0, m).
int64_t lookupTableSum(int n, const int* codes, int m, const int* table) {
  (void)m;
  int64_t total = 0;
  for (int i = 0; i < n; ++i) total += table[codes[i]];
  return total;
}

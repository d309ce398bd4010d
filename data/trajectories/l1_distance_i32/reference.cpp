#include <cstdint>

// Manhattan (L1) distance between two integer vectors: the sum of |a[i] - b[i]|,
// accumulated exactly in 64 bits.
int64_t l1Distance(int n, const int* a, const int* b) {
  int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    int d = a[i] - b[i];
    total += d < 0 ? -d : d;
  }
  return total;
}

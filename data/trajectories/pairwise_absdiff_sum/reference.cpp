#include <cstdint>

// Sum of |x[i] - x[j]| over all unordered pairs i < j (the numerator of Gini's
// mean difference), exact in 64 bits.
int64_t pairwiseAbsDiffSum(int n, const int* x) {
  int64_t total = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      int d = x[i] - x[j];
      total += d < 0 ? -d : d;
    }
  return total;
}

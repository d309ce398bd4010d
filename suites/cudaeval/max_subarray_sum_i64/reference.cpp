#include <cstdint>

// Largest sum of a non-empty contiguous stretch of a[0..n) (n >= 1), e.g. the
// best buy-and-hold gain from a series of daily price changes in cents, or
// the strongest segment of a signal. Kadane's algorithm: cur is the best sum
// of a stretch ending at i, best the best seen so far; 64-bit sums.
int64_t maxSubarraySum(int n, const int* a) {
  int64_t cur = a[0], best = a[0];
  for (int i = 1; i < n; ++i) {
    int64_t v = a[i];
    cur = cur + v > v ? cur + v : v;
    if (cur > best) best = cur;
  }
  return best;
}

#include <cstdint>

// Number of inversions of a sequence: pairs i < j with a[i] > a[j] (equal
// values are not inverted). It measures how far a ranking is from sorted
// order (Kendall's distance to the sorted ranking) and is what a bubble
// sort would swap. Written as the direct pair loop.
int64_t countInversions(int n, const int* a) {
  int64_t count = 0;
  for (int i = 0; i < n; ++i) {
    int ai = a[i];
    for (int j = i + 1; j < n; ++j) {
      if (ai > a[j]) ++count;
    }
  }
  return count;
}

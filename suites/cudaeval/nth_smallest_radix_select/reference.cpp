#include <algorithm>
#include <cstdint>
#include <vector>

// The k-th smallest of n unsigned keys (k counted from 0, 0 <= k < n), with
// repeats counted: the value that would land at index k if the keys were
// sorted ascending. Used for medians, percentiles and thresholds (the
// splitter of a sample sort, the cut-off of a top-fraction filter). The
// input is left untouched; selection works on a copy.
uint32_t nthSmallest(const std::vector<uint32_t>& keys, int k) {
  std::vector<uint32_t> work(keys);
  std::nth_element(work.begin(), work.begin() + k, work.end());
  return work[k];
}

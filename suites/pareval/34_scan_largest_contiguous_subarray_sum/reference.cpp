#include <cstddef>
#include <vector>

// Largest sum over all non-empty contiguous runs x[i..j] (Kadane's algorithm):
// `ending` is the best sum of a run that ends at the current element.
// An empty vector has no run; it returns 0.
int maximumSubarray(std::vector<int> const& x) {
  if (x.empty()) return 0;
  int best = x[0];
  int ending = x[0];
  for (size_t i = 1; i < x.size(); ++i) {
    ending = ending > 0 ? ending + x[i] : x[i];
    if (ending > best) best = ending;
  }
  return best;
}

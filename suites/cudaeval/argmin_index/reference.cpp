#include <cstddef>
#include <vector>

// Returns the index of the smallest element of values; when the minimum occurs
// several times, the first (lowest) index wins. Returns -1 for an empty vector.
int argminIndex(const std::vector<int>& values) {
  if (values.empty()) return -1;
  size_t best = 0;
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] < values[best]) best = i;
  }
  return static_cast<int>(best);
}

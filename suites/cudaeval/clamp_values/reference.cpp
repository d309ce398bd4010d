#include <cstddef>
#include <vector>

// Clamps every element of values, in place, into the closed range [lo, hi]
// (lo <= hi).
void clampValues(std::vector<int>& values, int lo, int hi) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < lo) {
      values[i] = lo;
    } else if (values[i] > hi) {
      values[i] = hi;
    }
  }
}

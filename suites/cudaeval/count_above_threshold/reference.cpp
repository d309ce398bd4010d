#include <cstddef>
#include <vector>

// Returns how many elements of x are strictly greater than threshold.
int countAboveThreshold(const std::vector<float>& x, float threshold) {
  int count = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] > threshold) ++count;
  }
  return count;
}

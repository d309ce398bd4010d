#include <algorithm>
#include <vector>

// Sorts the floats in ascending order, in place (no NaNs in the input).
void bitonicSortF32(std::vector<float>& data) {
  std::sort(data.begin(), data.end());
}

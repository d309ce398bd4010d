#include <algorithm>
#include <cstdint>
#include <vector>

// Sorts unsigned 32-bit keys in ascending order, in place.
void radixSortU32(std::vector<uint32_t>& keys) {
  std::sort(keys.begin(), keys.end());
}

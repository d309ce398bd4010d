#include <cstdint>
#include <vector>

// Sum of a vector of 64-bit signed integers.
int64_t totalInt64(std::vector<int64_t> const& values) {
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  return sum;
}

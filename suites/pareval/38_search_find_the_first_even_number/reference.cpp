#include <cstddef>
#include <vector>

// Index of the first even element of x (negative values included: -4 is even,
// -3 is not); x.size() when x holds no even number.
size_t findFirstEven(std::vector<int> const& x) {
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] % 2 == 0) return i;
  }
  return x.size();
}

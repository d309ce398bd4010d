#include <cstddef>
#include <vector>

bool isPowerOfTwo(int x) {
	return (x > 0) && !(x & (x - 1));
}

// mask[i] says whether x[i] is a positive power of two (1, 2, 4, ...);
// zero and negative values give false.
void mapPowersOfTwo(std::vector<int> const& x, std::vector<bool> &mask) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) mask[i] = isPowerOfTwo(x[i]);
}

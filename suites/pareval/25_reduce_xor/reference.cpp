#include <cstddef>
#include <vector>

// True when an odd number of the elements of x are true (false for an empty vector).
bool reduceLogicalXOR(std::vector<bool> const& x) {
  bool result = false;
  for (std::size_t i = 0; i < x.size(); ++i) result = result != static_cast<bool>(x[i]);
  return result;
}

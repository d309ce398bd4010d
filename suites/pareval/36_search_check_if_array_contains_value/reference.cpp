#include <vector>

// True when some element of x equals target (linear scan, stops at the first match).
bool contains(std::vector<int> const& x, int target) {
  for (int v : x) {
    if (v == target) return true;
  }
  return false;
}

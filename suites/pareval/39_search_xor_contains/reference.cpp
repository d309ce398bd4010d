#include <vector>

// True when val occurs in exactly one of x and y; false when it occurs in
// both or in neither.
bool xorContains(std::vector<int> const& x, std::vector<int> const& y, int val) {
  bool inX = false, inY = false;
  for (int v : x) {
    if (v == val) {
      inX = true;
      break;
    }
  }
  for (int v : y) {
    if (v == val) {
      inY = true;
      break;
    }
  }
  return inX != inY;
}

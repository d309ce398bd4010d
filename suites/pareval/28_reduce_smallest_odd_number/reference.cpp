#include <climits>
#include <vector>

// The smallest (most negative) odd value in x. Negative values count: an odd number is one
// with x % 2 != 0. When x holds no odd number the result is INT_MAX.
int smallestOdd(std::vector<int> const& x) {
  int smallest = INT_MAX;
  for (int v : x) {
    if (v % 2 != 0 && v < smallest) smallest = v;
  }
  return smallest;
}

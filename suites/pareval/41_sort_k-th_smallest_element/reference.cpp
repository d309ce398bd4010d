#include <algorithm>
#include <vector>

// Returns the k-th smallest element of x, with k counted from 1 (k = 1 is the
// minimum) and duplicates counted separately; 1 <= k <= x.size().
int findKthSmallest(std::vector<int> const& x, int k) {
  std::vector<int> v(x);
  std::nth_element(v.begin(), v.begin() + (k - 1), v.end());
  return v[k - 1];
}

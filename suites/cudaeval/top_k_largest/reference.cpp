#include <algorithm>
#include <functional>
#include <vector>

// Writes the k largest values of x[0..n-1] (1 <= k <= n) to out in
// descending order; repeated values appear as often as they occur.
void topKLargest(const float* x, int n, int k, float* out) {
  std::vector<float> tmp(x, x + n);
  std::partial_sort(tmp.begin(), tmp.begin() + k, tmp.end(), std::greater<float>());
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
}

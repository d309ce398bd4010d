#include <cstddef>
#include <vector>

// Prefix sum of x read back to front: output[i] = x[n-1] + x[n-2] + ... + x[n-1-i],
// i.e. output[i] is the sum of the last i+1 elements of x.
void reversePrefixSum(std::vector<int> const& x, std::vector<int> &output) {
  const size_t n = x.size();
  int running = 0;
  for (size_t i = 0; i < n; ++i) {
    running += x[n - 1 - i];
    output[i] = running;
  }
}

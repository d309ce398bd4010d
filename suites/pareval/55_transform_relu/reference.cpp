#include <cstddef>
#include <vector>

// In-place rectified linear unit: negative entries are replaced by 0, all
// other entries (zero and positive) are left as they are.
void relu(std::vector<double> &x) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) {
    if (x[i] < 0.0) x[i] = 0.0;
  }
}

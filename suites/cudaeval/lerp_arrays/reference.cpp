#include <cstddef>
#include <vector>

// Element-wise linear interpolation with a per-element weight:
// out[i] = a[i] + t[i] * (b[i] - a[i]). All four vectors have the same length.
void lerpArrays(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& t,
                std::vector<float>& out) {
  for (size_t i = 0; i < a.size(); ++i) {
    out[i] = a[i] + t[i] * (b[i] - a[i]);
  }
}

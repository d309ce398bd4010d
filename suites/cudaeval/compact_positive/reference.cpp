#include <cstddef>
#include <vector>

// Stream compaction: appends the strictly positive elements of x to
// `positives` in their original order and returns how many there are.
// `positives` is passed in empty.
int compactPositive(const std::vector<float>& x, std::vector<float>& positives) {
  positives.clear();
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] > 0.0f) positives.push_back(x[i]);
  }
  return static_cast<int>(positives.size());
}

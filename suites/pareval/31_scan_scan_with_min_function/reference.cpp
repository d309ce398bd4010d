#include <cstddef>
#include <vector>

// In place: x[i] becomes the smallest of the original x[0], ..., x[i] (a running minimum).
void partialMinimums(std::vector<float> &x) {
  for (size_t i = 1; i < x.size(); ++i) {
    if (x[i - 1] < x[i]) x[i] = x[i - 1];
  }
}

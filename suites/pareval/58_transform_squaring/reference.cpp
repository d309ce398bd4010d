#include <cstddef>
#include <vector>

// In place: every entry is replaced by its square (inputs are small enough
// that the square fits in an int).
void squareEach(std::vector<int> &x) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) x[i] = x[i] * x[i];
}

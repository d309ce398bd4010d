#include <cmath>

// Fixed-radius neighbour counts on a line: x holds n positions sorted in
// ascending order; count[i] is the number of other points j with
// |x[j] - x[i]| <= r. Written as the plain all-pairs loop.
void sorted_radius_count_1d(int n, const float* x, float r, int* count) {
  for (int i = 0; i < n; ++i) {
    int c = 0;
    for (int j = 0; j < n; ++j) {
      if (j != i && std::fabs(x[j] - x[i]) <= r) ++c;
    }
    count[i] = c;
  }
}

#include <cmath>
#include <cstddef>
#include <vector>

// Index of the element with the smallest |x[i] - M_PI|; on a tie the lower
// index wins (strict comparison). An empty vector gives 0.
size_t findClosestToPi(std::vector<double> const& x) {
  if (x.empty()) return 0;
  size_t best = 0;
  double bestDist = std::fabs(x[0] - M_PI);
  for (size_t i = 1; i < x.size(); ++i) {
    double d = std::fabs(x[i] - M_PI);
    if (d < bestDist) {
      bestDist = d;
      best = i;
    }
  }
  return best;
}

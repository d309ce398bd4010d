#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

// Counts the values of x (non-negative) by fractional part: bins[0] [0, 0.25), bins[1]
// [0.25, 0.5), bins[2] [0.5, 0.75), bins[3] [0.75, 1).
void countQuartiles(std::vector<double> const& x, std::array<size_t, 4> &bins) {
  bins.fill(0);
  for (double v : x) {
    double frac = v - std::floor(v);
    std::size_t q = static_cast<std::size_t>(frac * 4.0);
    if (q > 3) q = 3;
    ++bins[q];
  }
}

#include <array>
#include <cstddef>
#include <vector>

// Counts the values of x (all in [0, 100]) per decade: bins[k] counts [10k, 10k+10) for k < 9,
// and bins[9] counts [90, 100], so that 100 itself lands in the last bin.
void binsBy10Count(std::vector<double> const& x, std::array<size_t, 10> &bins) {
  bins.fill(0);
  for (double v : x) {
    std::size_t k = static_cast<std::size_t>(v / 10.0);
    if (k > 9) k = 9;
    ++bins[k];
  }
}

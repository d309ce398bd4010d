#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

// ranks[i] = the position x[i] takes when x is sorted ascending. Equal values
// are ranked in input order (a stable sort of the indices).
void ranks(std::vector<float> const& x, std::vector<size_t> &ranks) {
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&x](size_t a, size_t b) { return x[a] < x[b]; });
  for (size_t p = 0; p < order.size(); ++p) ranks[order[p]] = p;
}

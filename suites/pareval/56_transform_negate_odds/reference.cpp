#include <cstddef>
#include <vector>

// In place: an odd entry is replaced by its negation and an even entry by
// half of itself (exact, since it is even). Oddness is x % 2 != 0, so
// negative odd numbers are negated too (-7 becomes 7, -8 becomes -4).
void negateOddsAndHalveEvens(std::vector<int> &x) {
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i) {
    if (x[i] % 2 != 0) x[i] = -x[i];
    else x[i] = x[i] / 2;
  }
}

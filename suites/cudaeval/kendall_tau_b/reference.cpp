#include <cmath>
#include <cstdint>

// Kendall's tau-b rank correlation of n paired samples (x[i], y[i]) by the
// direct O(n^2) count over all pairs i < j: with sx = sign(x[i] - x[j]) and
// sy = sign(y[i] - y[j]),
//   S  = sum of sx * sy          (concordant minus discordant pairs)
//   t1 = number of pairs with sx == 0 (tied in x),  t2 = pairs tied in y,
//   n0 = n (n - 1) / 2,
//   tau_b = S / sqrt((n0 - t1) * (n0 - t2)), or 0 when either factor is 0.
double kendallTauB(int n, const float* x, const float* y) {
  int64_t s = 0, t1 = 0, t2 = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const int sx = (x[i] > x[j]) - (x[i] < x[j]);
      const int sy = (y[i] > y[j]) - (y[i] < y[j]);
      s += sx * sy;
      t1 += sx == 0;
      t2 += sy == 0;
    }
  }
  const double n0 = 0.5 * static_cast<double>(n) * (n - 1);
  const double den = (n0 - static_cast<double>(t1)) * (n0 - static_cast<double>(t2));
  return den > 0.0 ? static_cast<double>(s) / std::sqrt(den) : 0.0;
}

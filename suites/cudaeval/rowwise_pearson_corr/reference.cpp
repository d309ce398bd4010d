#include <cmath>

// Pearson correlation of matched rows of two rows x len row-major float
// matrices (e.g. a gene's expression profile against its predicted profile,
// or each asset's returns against a benchmark's): for every row r,
//   corr[r] = sum (x - mx)(y - my) / sqrt(sum (x - mx)^2 * sum (y - my)^2)
// with mx, my the row means, computed with the two-pass method in double.
// A row in which x or y is constant gets 0.
void rowwisePearsonCorr(int rows, int len, const float* x, const float* y, float* corr) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + static_cast<long long>(r) * len;
    const float* yr = y + static_cast<long long>(r) * len;
    double sx = 0.0, sy = 0.0;
    for (int t = 0; t < len; ++t) {
      sx += xr[t];
      sy += yr[t];
    }
    const double mx = sx / len, my = sy / len;
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (int t = 0; t < len; ++t) {
      const double dx = xr[t] - mx, dy = yr[t] - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
    corr[r] = (sxx > 0.0 && syy > 0.0) ? static_cast<float>(sxy / std::sqrt(sxx * syy)) : 0.0f;
  }
}

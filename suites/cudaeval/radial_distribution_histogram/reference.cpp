#include <cmath>
#include <cstdint>

// Pair-distance histogram for the radial distribution function g(r) of a
// liquid or gas in a cubic periodic box of side `box`: every unordered pair
// i < j contributes once, with the minimum-image separation
//   d = (xj - xi) - box * rint((xj - xi) / box)  per axis,
// r2 = (dx*dx + dy*dy) + dz*dz. Pairs with r2 < rmax^2, rmax = box / 2, fall
// in bin (int)(sqrt(r2) / dr), dr = rmax / nbins (clamped to nbins - 1).
// All arithmetic in float without fused multiply-add; counts are 64-bit and
// hist is overwritten. g(r) is these counts over the ideal-gas counts.
void pairDistanceHistogram(int n, const float* x, const float* y, const float* z, float box, int nbins,
                           int64_t* hist) {
  for (int b = 0; b < nbins; ++b) hist[b] = 0;
  float rmax = 0.5f * box;
  float rmax2 = rmax * rmax;
  float dr = rmax / static_cast<float>(nbins);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
      dx -= box * std::rint(dx / box);
      dy -= box * std::rint(dy / box);
      dz -= box * std::rint(dz / box);
      float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rmax2) continue;
      int b = static_cast<int>(std::sqrt(r2) / dr);
      if (b > nbins - 1) b = nbins - 1;
      ++hist[b];
    }
  }
}

#include <cstddef>
#include <cstdint>
#include <vector>

// Histogram equalisation of an 8-bit image given as a flat pixel vector:
//   1. histogram of the 256 grey levels;
//   2. cumulative histogram cdf and cdf_min, the cdf value of the darkest level
//      present;
//   3. lut[v] = round((cdf[v] - cdf_min) * 255 / (n - cdf_min)) in integer
//      arithmetic (levels below the darkest present map to 0); if every pixel
//      has the same level the image is returned unchanged;
//   4. out[i] = lut[img[i]].
void equalize_histogram(const std::vector<uint8_t>& img, std::vector<uint8_t>& out) {
  size_t n = img.size();
  uint32_t hist[256] = {0};
  for (size_t i = 0; i < n; ++i) hist[img[i]]++;
  uint32_t cdf[256];
  uint32_t run = 0, cdf_min = 0;
  for (int v = 0; v < 256; ++v) {
    run += hist[v];
    cdf[v] = run;
    if (cdf_min == 0 && run > 0) cdf_min = run;
  }
  uint8_t lut[256];
  uint64_t denom = (uint64_t)n - cdf_min;
  for (int v = 0; v < 256; ++v) {
    if (denom == 0) lut[v] = (uint8_t)v;
    else if (cdf[v] <= cdf_min) lut[v] = 0;
    else lut[v] = (uint8_t)(((uint64_t)(cdf[v] - cdf_min) * 255u + denom / 2) / denom);
  }
  for (size_t i = 0; i < n; ++i) out[i] = lut[img[i]];
}

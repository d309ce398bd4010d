#include <cstddef>
#include <cstdint>
#include <vector>

static inline uint8_t clamp_u8(int v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

// Converts interleaved 8-bit RGB to interleaved full-range YCbCr (BT.601, as in
// JPEG) with 8-bit fixed-point coefficients:
//   Y  = ( 77 R + 150 G +  29 B + 128) >> 8
//   Cb = ((-43 R -  85 G + 128 B + 128) >> 8) + 128
//   Cr = ((128 R - 107 G -  21 B + 128) >> 8) + 128
// (arithmetic shifts, results clamped to [0, 255]).
void rgb_to_ycbcr(const std::vector<uint8_t>& rgb, std::vector<uint8_t>& ycc, int npixels) {
  for (int p = 0; p < npixels; ++p) {
    int r = rgb[3 * (size_t)p], g = rgb[3 * (size_t)p + 1], b = rgb[3 * (size_t)p + 2];
    ycc[3 * (size_t)p] = clamp_u8((77 * r + 150 * g + 29 * b + 128) >> 8);
    ycc[3 * (size_t)p + 1] = clamp_u8(((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128);
    ycc[3 * (size_t)p + 2] = clamp_u8(((128 * r - 107 * g - 21 * b + 128) >> 8) + 128);
  }
}

#include <cstddef>
#include <cstdint>
#include <vector>

// Local-binary-pattern texture descriptor of an 8-bit grey w x h image, in
// two passes as feature extractors write it:
//  1. LBP code per pixel: the 8 neighbours, starting at the top-left one and
//     going clockwise (TL, T, TR, R, BR, B, BL, L), give bits 0..7, a bit
//     set when the neighbour is >= the centre; coordinates are clamped at
//     the borders;
//  2. a 256-bin histogram of the codes per cell of c x c pixels (cells cut by
//     the right and bottom edges are smaller), cells in row-major order:
//     hist[(cy * cells_x + cx) * 256 + code].
// w, h >= 1, 1 <= c <= 128.
void lbpCellHistograms(const uint8_t* img, int w, int h, int c, int* hist) {
  auto at = [&](int x, int y) {
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return img[static_cast<long>(y) * w + x];
  };
  const int dx[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
  const int dy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};
  std::vector<uint8_t> codes(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t centre = at(x, y);
      int code = 0;
      for (int k = 0; k < 8; ++k) {
        if (at(x + dx[k], y + dy[k]) >= centre) code |= 1 << k;
      }
      codes[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(code);
    }
  }
  const int cells_x = (w + c - 1) / c, cells_y = (h + c - 1) / c;
  for (long i = 0; i < static_cast<long>(cells_x) * cells_y * 256; ++i) hist[i] = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int cell = (y / c) * cells_x + x / c;
      ++hist[static_cast<long>(cell) * 256 + codes[static_cast<size_t>(y) * w + x]];
    }
  }
}

#include <cstdint>

// Bilinear demosaicing of an 8-bit RGGB Bayer mosaic (w x h, row-major) into
// interleaved 8-bit RGB. Pixel (x, y) carries red when x and y are even, blue
// when both are odd, green otherwise. Missing channels are rounded averages
// of the nearest samples of that colour:
//   at red or blue: green = (N + S + W + E + 2) / 4 and the other of red/blue
//   = (NW + NE + SW + SE + 2) / 4;
//   at green on a red row: red = (W + E + 1) / 2, blue = (N + S + 1) / 2;
//   at green on a blue row: red = (N + S + 1) / 2, blue = (W + E + 1) / 2.
// Outside the image coordinates reflect without repeating the edge (-1 -> 1,
// w -> w - 2), which keeps the colour pattern. w, h >= 2.
static int Reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

void demosaicBilinearRggb(const uint8_t* raw, int w, int h, uint8_t* rgb) {
  auto at = [&](int x, int y) { return static_cast<int>(raw[Reflect(y, h) * w + Reflect(x, w)]); };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int c = at(x, y);
      int cross = (at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y) + 2) / 4;
      int diag = (at(x - 1, y - 1) + at(x + 1, y - 1) + at(x - 1, y + 1) + at(x + 1, y + 1) + 2) / 4;
      int horiz = (at(x - 1, y) + at(x + 1, y) + 1) / 2;
      int vert = (at(x, y - 1) + at(x, y + 1) + 1) / 2;
      int r, g, b;
      bool even_row = (y % 2) == 0, even_col = (x % 2) == 0;
      if (even_row && even_col) {
        r = c; g = cross; b = diag;
      } else if (!even_row && !even_col) {
        r = diag; g = cross; b = c;
      } else if (even_row) {
        r = horiz; g = c; b = vert;
      } else {
        r = vert; g = c; b = horiz;
      }
      uint8_t* px = rgb + 3 * (static_cast<long>(y) * w + x);
      px[0] = static_cast<uint8_t>(r);
      px[1] = static_cast<uint8_t>(g);
      px[2] = static_cast<uint8_t>(b);
    }
  }
}

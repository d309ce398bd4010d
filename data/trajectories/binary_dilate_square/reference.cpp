#include <cstddef>
#include <cstdint>

// Binary dilation of a w x h mask (row-major, any nonzero byte counts as set)
// by a (2r+1) x (2r+1) square: out[y][x] = 1 if some set pixel lies within
// r rows and r columns of (x, y), else 0. Pixels outside the image are unset.
void dilate_binary_box(int w, int h, int r, const uint8_t* mask, uint8_t* out) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t v = 0;
      for (int dy = -r; dy <= r; ++dy) {
        int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (int dx = -r; dx <= r; ++dx) {
          int xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          if (mask[(size_t)yy * w + xx] != 0) v = 1;
        }
      }
      out[(size_t)y * w + x] = v;
    }
}

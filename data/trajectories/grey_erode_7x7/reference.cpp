// Grey-level erosion of a row-major w x h float image with a 7 x 7 square:
// out[y][x] is the minimum of img over the window centred on (x, y), with
// coordinates clamped to the image.
void grey_erode7(int w, int h, const float* img, float* out) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float m = img[y * w + x];
      for (int dy = -3; dy <= 3; ++dy) {
        int yy = y + dy < 0 ? 0 : (y + dy > h - 1 ? h - 1 : y + dy);
        for (int dx = -3; dx <= 3; ++dx) {
          int xx = x + dx < 0 ? 0 : (x + dx > w - 1 ? w - 1 : x + dx);
          float v = img[yy * w + xx];
          if (v < m) m = v;
        }
      }
      out[y * w + x] = m;
    }
  }
}

// Sliding-window cross-correlation of a small template over a float image
// (both row-major). Only positions where the template fits entirely inside the
// image are produced, so out is (iw - tw + 1) x (ih - th + 1):
//   out[y][x] = sum_{v < th} sum_{u < tw} image[y + v][x + u] * tmpl[v][u].
void match_template_xcorr(const float* image, int iw, int ih, const float* tmpl, int tw, int th, float* out) {
  int ow = iw - tw + 1, oh = ih - th + 1;
  for (int y = 0; y < oh; ++y) {
    for (int x = 0; x < ow; ++x) {
      float acc = 0.0f;
      for (int v = 0; v < th; ++v)
        for (int u = 0; u < tw; ++u) acc += image[(y + v) * iw + x + u] * tmpl[v * tw + u];
      out[y * ow + x] = acc;
    }
  }
}

// 3x3 max pooling with stride 2 and padding 1 over each of `planes` feature
// maps of h x w floats (NCHW with N*C = planes), returning the pooled maps and
// the argmax indices a backward pass needs. The pooled map is
// oh x ow with oh = (h - 1) / 2 + 1 and ow = (w - 1) / 2 + 1; output (oy, ox)
// covers input rows 2*oy - 1 .. 2*oy + 1 and columns 2*ox - 1 .. 2*ox + 1,
// skipping positions outside the map (the padding never wins). Ties keep the
// first maximum in row-major window order. idx holds y * w + x within the
// plane. h, w >= 1.
void maxPool3x3s2Argmax(int planes, int h, int w, const float* in, float* out, int* idx) {
  const int oh = (h - 1) / 2 + 1, ow = (w - 1) / 2 + 1;
  for (int p = 0; p < planes; ++p) {
    const float* src = in + static_cast<long long>(p) * h * w;
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        float best = 0.0f;
        int best_i = -1;
        for (int ky = 0; ky < 3; ++ky) {
          const int y = 2 * oy - 1 + ky;
          if (y < 0 || y >= h) continue;
          for (int kx = 0; kx < 3; ++kx) {
            const int x = 2 * ox - 1 + kx;
            if (x < 0 || x >= w) continue;
            const float v = src[y * w + x];
            if (best_i < 0 || v > best) {
              best = v;
              best_i = y * w + x;
            }
          }
        }
        const long long o = (static_cast<long long>(p) * oh + oy) * ow + ox;
        out[o] = best;
        idx[o] = best_i;
      }
    }
  }
}

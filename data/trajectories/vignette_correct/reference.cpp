// Radial vignetting correction of a row-major width x height float image:
//   out = in * (1 + k1 r^2 + k2 r^4),
// where r^2 is the squared distance of the pixel from the image centre over the
// squared half-diagonal plus one (r stays below 1; the +1 keeps a 1 x 1
// image defined).
void vignette_correct(int width, int height, float k1, float k2, const float* in, float* out) {
  float cx = 0.5f * (width - 1), cy = 0.5f * (height - 1);
  float inv_r2max = 1.0f / (cx * cx + cy * cy + 1.0f);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float dx = x - cx, dy = y - cy;
      float r2 = (dx * dx + dy * dy) * inv_r2max;
      out[y * width + x] = in[y * width + x] * (1.0f + k1 * r2 + k2 * r2 * r2);
    }
  }
}

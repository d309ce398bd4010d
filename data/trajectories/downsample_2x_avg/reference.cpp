// Halves the resolution of a float image (row-major, width x height) by
// averaging each 2x2 block of pixels. The output is (width/2) x (height/2);
// a trailing odd column or row is dropped.
void downsample_2x_average(const float* src, int width, int height, float* dst) {
  int ow = width / 2, oh = height / 2;
  for (int y = 0; y < oh; ++y) {
    for (int x = 0; x < ow; ++x) {
      const float* r0 = src + (long)(2 * y) * width + 2 * x;
      const float* r1 = r0 + width;
      dst[(long)y * ow + x] = (r0[0] + r0[1] + r1[0] + r1[1]) * 0.25f;
    }
  }
}

// Mirrors a float image left-to-right: out[y][x] = in[y][width - 1 - x].
void mirror_rows(int width, int height, const float* in, float* out) {
  for (int y = 0; y < height; ++y) {
    const float* src = in + (long)y * width;
    float* dst = out + (long)y * width;
    for (int x = 0; x < width; ++x) dst[x] = src[width - 1 - x];
  }
}

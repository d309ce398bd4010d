// im2col for a stride-1 "same" convolution with an odd ksize x ksize kernel:
// the channels x height x width image (CHW, row-major) is unfolded into a
// matrix of (channels * ksize * ksize) rows and (height * width) columns, so
// that a convolution becomes a matrix product. Row (c * ksize + ky) * ksize + kx
// and column y * width + x hold img[c][y + ky - pad][x + kx - pad] with
// pad = ksize / 2, or 0 where that pixel lies outside the image.
void im2colSamePad(int channels, int height, int width, int ksize, const float* img, float* cols) {
  const int pad = ksize / 2;
  const long long plane = static_cast<long long>(height) * width;
  long long r = 0;
  for (int c = 0; c < channels; ++c) {
    for (int ky = 0; ky < ksize; ++ky) {
      for (int kx = 0; kx < ksize; ++kx, ++r) {
        float* dst = cols + r * plane;
        for (int y = 0; y < height; ++y) {
          const int sy = y + ky - pad;
          for (int x = 0; x < width; ++x) {
            const int sx = x + kx - pad;
            const bool inside = sy >= 0 && sy < height && sx >= 0 && sx < width;
            dst[y * width + x] =
                inside ? img[c * plane + static_cast<long long>(sy) * width + sx] : 0.0f;
          }
        }
      }
    }
  }
}

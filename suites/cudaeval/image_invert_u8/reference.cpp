#include <cstdint>

// Photographic negative of an 8-bit image with interleaved channels: every
// sample v becomes 255 - v. The image is width x height pixels, channels
// samples per pixel, rows stored one after another.
void invertImageU8(int width, int height, int channels, const uint8_t* src, uint8_t* dst) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        int idx = (y * width + x) * channels + c;
        dst[idx] = static_cast<uint8_t>(255 - src[idx]);
      }
    }
  }
}

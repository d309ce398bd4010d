#include <cstdint>

struct Rgb8 {
  uint8_t r, g, b;
};

// Converts interleaved 8-bit RGB pixels to 8-bit luma with fixed-point
// BT.601-style weights (77, 150, 29)/256, rounded to nearest:
//   luma = (77 r + 150 g + 29 b + 128) >> 8, always in [0, 255].
void rgbToLuma(int npixels, const Rgb8* pixels, uint8_t* luma) {
  for (int i = 0; i < npixels; ++i) {
    unsigned int y = 77u * pixels[i].r + 150u * pixels[i].g + 29u * pixels[i].b + 128u;
    luma[i] = static_cast<uint8_t>(y >> 8);
  }
}

#include <cstdint>

// Premultiplies the colour channels of an 8-bit RGBA image by its alpha, in
// place, as compositors do before blending: for every pixel (r, g, b, a),
// each colour channel c becomes (c * a + 127) / 255 (integer division, so the
// result is c * a / 255 rounded to nearest, halves down) and a is unchanged.
// rgba holds `pixels` pixels of 4 interleaved bytes; pixels may be 0.
void premultiplyAlphaRgba(uint8_t* rgba, int pixels) {
  for (int p = 0; p < pixels; ++p) {
    uint8_t* px = rgba + 4 * p;
    unsigned a = px[3];
    if (a == 255) continue;  // opaque: nothing changes
    for (int c = 0; c < 3; ++c) {
      px[c] = static_cast<uint8_t>((px[c] * a + 127u) / 255u);
    }
  }
}

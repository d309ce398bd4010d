#include <cstdint>

// Green-screen keying: computes an 8-bit alpha matte from an interleaved
// 8-bit RGB image. For each pixel the squared colour distance to the key
// colour, d2 = (r-kr)^2 + (g-kg)^2 + (b-kb)^2, decides the alpha: 0 (fully
// keyed out) when d2 <= inner^2, 255 when d2 >= outer^2, and in between the
// linear ramp (d2 - inner^2) * 255 / (outer^2 - inner^2) in integers
// (truncated). 0 <= inner < outer. pixels may be 0.
void chromaKeyAlpha(const uint8_t* rgb, int pixels, int key_r, int key_g, int key_b, int inner, int outer,
                    uint8_t* alpha) {
  const int in2 = inner * inner;
  const int out2 = outer * outer;
  for (int p = 0; p < pixels; ++p) {
    int dr = rgb[3 * p] - key_r;
    int dg = rgb[3 * p + 1] - key_g;
    int db = rgb[3 * p + 2] - key_b;
    int d2 = dr * dr + dg * dg + db * db;
    if (d2 <= in2) {
      alpha[p] = 0;
    } else if (d2 >= out2) {
      alpha[p] = 255;
    } else {
      alpha[p] = static_cast<uint8_t>((d2 - in2) * 255 / (out2 - in2));
    }
  }
}

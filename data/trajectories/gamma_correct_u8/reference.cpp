#include <cmath>
#include <cstdint>

// Gamma correction of 8-bit pixels: out = round(255 * (in / 255)^gamma),
// evaluated through a 256-entry lookup table built once per call.
void gamma_correct_u8(const uint8_t* in, uint8_t* out, int n, float gamma) {
  uint8_t lut[256];
  for (int v = 0; v < 256; ++v) {
    float f = std::pow(v / 255.0f, gamma);
    int q = (int)(f * 255.0f + 0.5f);
    lut[v] = (uint8_t)(q > 255 ? 255 : q);
  }
  for (int i = 0; i < n; ++i) out[i] = lut[in[i]];
}

#include <cstdint>

// Per-pixel alpha compositing of two 8-bit images with an 8-bit alpha mask:
//   out = round((fg * a + bg * (255 - a)) / 255)
// in integer arithmetic (add 127, then divide).
void alpha_blend_u8(int n, const uint8_t* fg, const uint8_t* bg, const uint8_t* alpha, uint8_t* out) {
  for (int i = 0; i < n; ++i) {
    unsigned a = alpha[i];
    unsigned v = fg[i] * a + bg[i] * (255u - a) + 127u;
    out[i] = (uint8_t)(v / 255u);
  }
}

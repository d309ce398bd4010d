#include <cstdint>

// Reverses the byte order of every 32-bit word (big <-> little endian).
void swapEndianness32(int n, const uint32_t* in, uint32_t* out) {
  for (int i = 0; i < n; ++i) {
    uint32_t w = in[i];
    out[i] = ((w >> 24) & 0x000000FFu) | ((w >> 8) & 0x0000FF00u) |
             ((w << 8) & 0x00FF0000u) | ((w << 24) & 0xFF000000u);
  }
}

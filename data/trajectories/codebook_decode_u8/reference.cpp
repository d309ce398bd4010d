#include <cstdint>

// Decodes 8-bit codebook-quantised values: each code indexes a 256-entry
// float codebook, and every group of 64 consecutive values shares one scale.
void codebook_decode_u8(int n, const uint8_t* codes, const float* codebook, const float* group_scale,
                        float* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = codebook[codes[i]] * group_scale[i / 64];
  }
}

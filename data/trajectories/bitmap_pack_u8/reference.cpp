#include <cstdint>

// Binarises an 8-bit image and packs it into a bitmap: bit (i % 32) of
// words[i / 32] is 1 when pixels[i] >= level. Bits past the last pixel are 0.
void pack_bitmap(int n, const uint8_t* pixels, int level, uint32_t* words) {
  int num_words = (n + 31) / 32;
  for (int w = 0; w < num_words; ++w) words[w] = 0;
  for (int i = 0; i < n; ++i) {
    if (pixels[i] >= level) words[i / 32] |= 1u << (i % 32);
  }
}

#include <cstdint>

// Packs a DNA sequence into 2 bits per base, 16 bases per 32-bit word, as
// the UCSC .2bit format and k-mer tools store sequence: A/a = 0, C/c = 1,
// G/g = 2, T/t = 3, and every other character (N, IUPAC codes) packs as 0
// (such runs are recorded separately by those formats). Base i lands in word
// i / 16 at bits 2 * (i % 16) .. 2 * (i % 16) + 1; unused bits of the last
// word are 0. n may be 0; packed has (n + 15) / 16 words.
void packDna2bit(const char* seq, int n, uint32_t* packed) {
  int words = (n + 15) / 16;
  for (int w = 0; w < words; ++w) {
    uint32_t word = 0;
    for (int j = 0; j < 16 && w * 16 + j < n; ++j) {
      uint32_t code;
      switch (seq[w * 16 + j]) {
        case 'C': case 'c': code = 1; break;
        case 'G': case 'g': code = 2; break;
        case 'T': case 't': code = 3; break;
        default: code = 0; break;
      }
      word |= code << (2 * j);
    }
    packed[w] = word;
  }
}

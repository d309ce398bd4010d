#include <cstdint>

// counts[i] = number of 1 bits in words[i], clearing the lowest set bit until
// the word is zero.
void countSetBits(int n, const uint32_t* words, int* counts) {
  for (int i = 0; i < n; ++i) {
    uint32_t w = words[i];
    int c = 0;
    while (w != 0) {
      w &= w - 1;
      ++c;
    }
    counts[i] = c;
  }
}

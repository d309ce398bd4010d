#include <cstdint>

// Hamming distance between each of n 256-bit descriptors (eight 32-bit words
// each, stored back to back) and one 256-bit query; the set bits of each XOR
// are counted by clearing the lowest one until none is left.
void descriptor_hamming(int n, const uint32_t* desc, const uint32_t* query, int* dist) {
  for (int i = 0; i < n; ++i) {
    int bits = 0;
    for (int w = 0; w < 8; ++w) {
      uint32_t diff = desc[8 * i + w] ^ query[w];
      while (diff != 0) {
        diff &= diff - 1;
        ++bits;
      }
    }
    dist[i] = bits;
  }
}

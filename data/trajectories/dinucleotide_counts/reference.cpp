#include <cstdint>

// Dinucleotide counts of a DNA sequence coded 0..3 (A, C, G, T):
// counts[4 * a + b] is the number of positions i with seq[i] == a and
// seq[i + 1] == b.
void dinucleotide_counts(int n, const uint8_t* seq, int* counts) {
  for (int k = 0; k < 16; ++k) counts[k] = 0;
  for (int i = 0; i + 1 < n; ++i) ++counts[4 * seq[i] + seq[i + 1]];
}

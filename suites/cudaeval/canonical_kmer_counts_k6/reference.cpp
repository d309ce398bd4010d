#include <cstdint>

// Canonical 6-mer counting of a DNA sequence, the first step of genome-size
// estimation and k-mer spectra: every window of 6 consecutive bases made of
// A, C, G, T only (upper case; a window touching any other character, such
// as N, is skipped) is coded 2 bits per base (A=0, C=1, G=2, T=3, first base
// in the highest bits), its reverse complement is coded the same way, and
// counts[min(code, rc_code)] is incremented. counts has 4096 entries and is
// overwritten. n may be 0.
void canonicalKmerCounts6(const char* seq, int n, int* counts) {
  const int k = 6;
  for (int c = 0; c < 4096; ++c) counts[c] = 0;
  for (int i = 0; i + k <= n; ++i) {
    int code = 0, rc = 0;
    bool valid = true;
    for (int j = 0; j < k; ++j) {
      int b;
      switch (seq[i + j]) {
        case 'A': b = 0; break;
        case 'C': b = 1; break;
        case 'G': b = 2; break;
        case 'T': b = 3; break;
        default: b = -1; break;
      }
      if (b < 0) {
        valid = false;
        break;
      }
      code = (code << 2) | b;
      rc |= (3 - b) << (2 * j);
    }
    if (valid) ++counts[code < rc ? code : rc];
  }
}

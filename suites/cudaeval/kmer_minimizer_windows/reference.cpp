#include <cstdint>
#include <vector>

// (w, k)-minimizers of a DNA sequence, the sampling step of read mappers and
// assemblers (minimap2-style sketches): every k-mer (k <= 16) is coded 2 bits
// per base (A=0, C=1, G=2, T=3, upper case, first base in the highest bits)
// and hashed with an invertible 32-bit mixer; a k-mer containing any other
// character hashes to 0xFFFFFFFF. For each window of w consecutive k-mers
// the output is the smallest hash in it. With nk = n - k + 1 k-mers there
// are nk - w + 1 windows. 1 <= k <= 16, 1 <= w <= 64, n >= k + w - 1.
static uint32_t MixHash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

void minimizerWindows(const char* seq, int n, int k, int w, uint32_t* mins) {
  const int nk = n - k + 1;
  std::vector<uint32_t> hashes(nk);
  for (int t = 0; t < nk; ++t) {
    uint32_t code = 0;
    bool valid = true;
    for (int j = 0; j < k && valid; ++j) {
      switch (seq[t + j]) {
        case 'A': code = code << 2; break;
        case 'C': code = (code << 2) | 1; break;
        case 'G': code = (code << 2) | 2; break;
        case 'T': code = (code << 2) | 3; break;
        default: valid = false; break;
      }
    }
    hashes[t] = valid ? MixHash(code) : 0xFFFFFFFFU;
  }
  for (int s = 0; s + w <= nk; ++s) {
    uint32_t m = hashes[s];
    for (int t = s + 1; t < s + w; ++t) m = hashes[t] < m ? hashes[t] : m;
    mins[s] = m;
  }
}

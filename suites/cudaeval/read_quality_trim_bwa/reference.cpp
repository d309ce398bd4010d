#include <cstdint>

// 3'-end quality trimming of sequencing reads with BWA's algorithm (as in
// `bwa aln -q` and cutadapt): for a read with Phred qualities q[0..L-1],
// scan from the 3' end accumulating s += threshold - q[i]; stop as soon as s
// drops below 0; the read is cut before the position where s was largest
// (the whole read is kept when s never rises above 0). quals holds nreads
// reads of length L back to back (row-major); kept[r] receives the number of
// bases kept from read r. L >= 1; nreads may be 0.
void trimReadsBwa(const uint8_t* quals, int nreads, int L, int threshold, int* kept) {
  for (int r = 0; r < nreads; ++r) {
    const uint8_t* q = quals + static_cast<long>(r) * L;
    int s = 0;
    int best = 0;
    int cut = L;
    for (int i = L - 1; i >= 0; --i) {
      s += threshold - q[i];
      if (s < 0) break;
      if (s > best) {
        best = s;
        cut = i;
      }
    }
    kept[r] = cut;
  }
}

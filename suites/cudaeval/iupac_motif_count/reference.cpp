// Counts the positions where a motif written in IUPAC nucleotide codes
// occurs in a DNA sequence, as restriction-site and transcription-factor
// motif scanners do (occurrences may overlap; the reverse strand is not
// scanned). Motif codes: A C G T, R = A/G, Y = C/T, S = C/G, W = A/T,
// K = G/T, M = A/C, B = not A, D = not C, H = not G, V = not T, N = any base.
// A sequence character matches a code when it is one of the upper-case bases
// A, C, G, T that the code allows; anything else (N, lower case) matches
// nothing. Every motif character is one of the codes above; 1 <= m.
static bool IupacAllows(char code, char base) {
  int bit;
  switch (base) {
    case 'A': bit = 1; break;
    case 'C': bit = 2; break;
    case 'G': bit = 4; break;
    case 'T': bit = 8; break;
    default: return false;
  }
  int mask;
  switch (code) {
    case 'A': mask = 1; break;
    case 'C': mask = 2; break;
    case 'G': mask = 4; break;
    case 'T': mask = 8; break;
    case 'R': mask = 1 | 4; break;
    case 'Y': mask = 2 | 8; break;
    case 'S': mask = 2 | 4; break;
    case 'W': mask = 1 | 8; break;
    case 'K': mask = 4 | 8; break;
    case 'M': mask = 1 | 2; break;
    case 'B': mask = 2 | 4 | 8; break;
    case 'D': mask = 1 | 4 | 8; break;
    case 'H': mask = 1 | 2 | 8; break;
    case 'V': mask = 1 | 2 | 4; break;
    case 'N': mask = 15; break;
    default: mask = 0; break;
  }
  return (mask & bit) != 0;
}

int countIupacMotif(const char* seq, int n, const char* motif, int m) {
  int count = 0;
  for (int i = 0; i + m <= n; ++i) {
    int j = 0;
    while (j < m && IupacAllows(motif[j], seq[i + j])) ++j;
    if (j == m) ++count;
  }
  return count;
}

#include <vector>

// Smith-Waterman local alignment score with affine gaps (Gotoh): a gap of
// length L costs gap_open + (L - 1) * gap_extend. With H the best score of an
// alignment ending at (i, j), E/F the best ending in a horizontal/vertical gap:
//   E[i][j] = max(E[i][j-1] - gap_extend, H[i][j-1] - gap_open)
//   F[i][j] = max(F[i-1][j] - gap_extend, H[i-1][j] - gap_open)
//   H[i][j] = max(0, H[i-1][j-1] + s(q[i-1], t[j-1]), E[i][j], F[i][j])
// H is 0 on row 0 and column 0. Returns the maximum H over the matrix.
int smith_waterman_affine(const char* q, int n, const char* t, int m, int match, int mismatch, int gap_open,
                          int gap_extend) {
  const int NEG = -(1 << 28);
  std::vector<int> Hprev(m + 1, 0), Hcur(m + 1, 0), F(m + 1, NEG);
  int best = 0;
  for (int i = 1; i <= n; ++i) {
    int E = NEG;
    Hcur[0] = 0;
    for (int j = 1; j <= m; ++j) {
      E = E - gap_extend > Hcur[j - 1] - gap_open ? E - gap_extend : Hcur[j - 1] - gap_open;
      F[j] = F[j] - gap_extend > Hprev[j] - gap_open ? F[j] - gap_extend : Hprev[j] - gap_open;
      int h = Hprev[j - 1] + (q[i - 1] == t[j - 1] ? match : mismatch);
      if (E > h) h = E;
      if (F[j] > h) h = F[j];
      if (h < 0) h = 0;
      Hcur[j] = h;
      if (h > best) best = h;
    }
    Hprev.swap(Hcur);
  }
  return best;
}

#include <vector>

// Needleman-Wunsch global alignment score of s1 (length n) and s2 (length m)
// with a linear gap penalty: H[i][0] = i*gap, H[0][j] = j*gap and
//   H[i][j] = max(H[i-1][j-1] + (s1[i-1] == s2[j-1] ? match : mismatch),
//                 H[i-1][j] + gap, H[i][j-1] + gap).
// Returns H[n][m].
int nw_global_score(const std::vector<char>& s1, const std::vector<char>& s2, int match, int mismatch, int gap) {
  int n = (int)s1.size(), m = (int)s2.size();
  std::vector<int> prev(m + 1), cur(m + 1);
  for (int j = 0; j <= m; ++j) prev[j] = j * gap;
  for (int i = 1; i <= n; ++i) {
    cur[0] = i * gap;
    for (int j = 1; j <= m; ++j) {
      int diag = prev[j - 1] + (s1[i - 1] == s2[j - 1] ? match : mismatch);
      int up = prev[j] + gap;
      int left = cur[j - 1] + gap;
      int best = diag > up ? diag : up;
      cur[j] = best > left ? best : left;
    }
    prev.swap(cur);
  }
  return prev[m];
}

#include <algorithm>
#include <cstdint>
#include <vector>

// Length of the longest common subsequence of two byte strings, by the
// classic dynamic program D[i][j] = D[i-1][j-1] + 1 if a[i-1] == b[j-1],
// else max(D[i-1][j], D[i][j-1]), keeping only two rows of the table.
int longestCommonSubsequenceLength(std::vector<uint8_t> const& a, std::vector<uint8_t> const& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<int> prev(m + 1, 0), cur(m + 1, 0);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = 0;
    for (size_t j = 1; j <= m; ++j) {
      if (a[i - 1] == b[j - 1]) {
        cur[j] = prev[j - 1] + 1;
      } else {
        cur[j] = std::max(prev[j], cur[j - 1]);
      }
    }
    std::swap(prev, cur);
  }
  return prev[m];
}

#include <algorithm>
#include <string>
#include <vector>

// Optimal string alignment (restricted Damerau-Levenshtein) distance of each
// pair (a[p], b[p]), as spelling correctors and record-linkage tools compute
// for candidate word pairs: the minimum number of insertions, deletions,
// substitutions and transpositions of two adjacent characters, where no
// substring is edited more than once. dist receives one value per pair; a
// and b have the same number of strings (possibly empty ones).
void osaDistances(const std::vector<std::string>& a, const std::vector<std::string>& b, std::vector<int>& dist) {
  for (size_t p = 0; p < a.size(); ++p) {
    const std::string& s = a[p];
    const std::string& t = b[p];
    const size_t n = s.size(), m = t.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
    for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
    for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
    for (size_t i = 1; i <= n; ++i) {
      for (size_t j = 1; j <= m; ++j) {
        int cost = s[i - 1] == t[j - 1] ? 0 : 1;
        int best = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1]) {
          best = std::min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    dist[p] = d[n][m];
  }
}

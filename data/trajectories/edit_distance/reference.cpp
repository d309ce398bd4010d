#include <vector>

// Levenshtein edit distance between a[0..n) and b[0..m): the minimum number of
// single-character insertions, deletions and substitutions turning a into b.
// Row-by-row dynamic programme with two rows.
int levenshtein_distance(const char* a, int n, const char* b, int m) {
  std::vector<int> prev(m + 1), cur(m + 1);
  for (int j = 0; j <= m; ++j) prev[j] = j;
  for (int i = 1; i <= n; ++i) {
    cur[0] = i;
    for (int j = 1; j <= m; ++j) {
      int cost = a[i - 1] != b[j - 1];
      int best = prev[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (prev[j - 1] + cost < best) best = prev[j - 1] + cost;
      cur[j] = best;
    }
    prev.swap(cur);
  }
  return prev[m];
}

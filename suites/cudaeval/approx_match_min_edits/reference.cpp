#include <vector>

// Approximate pattern matching (Sellers' semi-global dynamic programme), as
// primer, adapter and barcode searches run it over a read or a genome: for
// every text position j, the smallest edit distance (insertions, deletions,
// substitutions) between the whole pattern and any substring of the text
// that ends at j (the empty substring included, so the value is at most m).
// One DP column of m + 1 cells is kept: column j is derived from column
// j - 1 with row 0 held at 0. Characters are compared as bytes.
// n >= 0, 1 <= m <= 64.
void approxMatchMinEdits(const char* text, int n, const char* pattern, int m, int* best) {
  std::vector<int> col(m + 1), next(m + 1);
  for (int i = 0; i <= m; ++i) col[i] = i;
  for (int j = 0; j < n; ++j) {
    next[0] = 0;
    for (int i = 1; i <= m; ++i) {
      int sub = col[i - 1] + (pattern[i - 1] == text[j] ? 0 : 1);
      int del = col[i] + 1;
      int ins = next[i - 1] + 1;
      int v = sub < del ? sub : del;
      next[i] = v < ins ? v : ins;
    }
    col.swap(next);
    best[j] = col[m];
  }
}

#include <algorithm>
#include <vector>

// PageRank by power iteration on a directed graph in CSR form (row u lists
// the targets of u's out-links), damping factor 0.85. Ranks start at 1/n; each
// iteration every vertex u with out-degree > 0 sends rank[u] / outdeg(u)
// along each out-link, while the rank of vertices without out-links
// ("dangling" vertices) is spread evenly over all n vertices:
//   rank'[v] = (1 - d) / n + d * dangling / n + d * (sum of shares received by v).
// After `iterations` steps rank holds the result (it sums to 1).
void pageRankPowerIterations(std::vector<int> const& row_ptr, std::vector<int> const& col_idx, int iterations,
                             std::vector<double>& rank) {
  const int n = static_cast<int>(row_ptr.size()) - 1;
  const double d = 0.85;
  std::vector<double> next(n);
  for (int v = 0; v < n; ++v) rank[v] = 1.0 / n;
  for (int it = 0; it < iterations; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    double dangling = 0.0;
    for (int u = 0; u < n; ++u) {
      const int deg = row_ptr[u + 1] - row_ptr[u];
      if (deg == 0) {
        dangling += rank[u];
        continue;
      }
      const double share = rank[u] / deg;
      for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) next[col_idx[k]] += share;
    }
    const double base = (1.0 - d) / n + d * dangling / n;
    for (int v = 0; v < n; ++v) rank[v] = base + d * next[v];
  }
}

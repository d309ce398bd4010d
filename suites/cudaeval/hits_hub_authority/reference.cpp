#include <cmath>
#include <vector>

// Kleinberg's HITS on a directed graph in CSR form (the out-links of u are
// col_idx[row_ptr[u] .. row_ptr[u + 1])): hub and authority scores start at
// 1, and each iteration sets
//   auth[v] = sum of hub[u] over the links u -> v,  then scales auth to unit
//   Euclidean norm;
//   hub[u]  = sum of auth[v] over the links u -> v,  then scales hub likewise.
// A zero vector is left unscaled. Scores are doubles; repeated links count
// once per occurrence.
static void scale_to_unit(std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e * e;
  if (s > 0.0) {
    double inv = 1.0 / std::sqrt(s);
    for (double& e : v) e *= inv;
  }
}

void hitsScores(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int iterations,
                std::vector<double>& hub, std::vector<double>& auth) {
  std::vector<double> h(n, 1.0), a(n, 0.0);
  for (int it = 0; it < iterations; ++it) {
    for (int v = 0; v < n; ++v) a[v] = 0.0;
    for (int u = 0; u < n; ++u)
      for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) a[col_idx[k]] += h[u];
    scale_to_unit(a);
    for (int u = 0; u < n; ++u) {
      double s = 0.0;
      for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) s += a[col_idx[k]];
      h[u] = s;
    }
    scale_to_unit(h);
  }
  hub = h;
  auth = a;
}

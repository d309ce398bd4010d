#include <vector>

// Modularity of a community assignment on a weighted directed graph in CSR
// form (Leicht and Newman's directed modularity, the score community
// detection maximises):
//   Q = (1/m) sum_c in_c - (1/m^2) sum_c out_c * inc_c,
// where m is the total edge weight, in_c the weight of edges running inside
// community c, out_c the total out-weight of c's vertices and inc_c their
// total in-weight. Communities are label[v] in [0, ncomm). Sums in double;
// a graph without edges scores 0.
double directedModularity(int n, const int* row_ptr, const int* col_idx, const float* weight, const int* label,
                          int ncomm) {
  std::vector<double> out_w(ncomm, 0.0), in_w(ncomm, 0.0);
  double m = 0.0, inside = 0.0;
  for (int u = 0; u < n; ++u) {
    int cu = label[u];
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
      int cv = label[col_idx[k]];
      double w = weight[k];
      m += w;
      out_w[cu] += w;
      in_w[cv] += w;
      if (cu == cv) inside += w;
    }
  }
  if (m == 0.0) return 0.0;
  double expected = 0.0;
  for (int c = 0; c < ncomm; ++c) expected += out_w[c] * in_w[c];
  return inside / m - expected / (m * m);
}

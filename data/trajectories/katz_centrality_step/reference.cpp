// One power-iteration step of Katz centrality on a graph in CSR form (row v
// lists the vertices u with an edge u -> v): x_new[v] = beta + alpha * sum of
// x[u] over v's list.
void katz_step(int n, const int* row_ptr, const int* col_idx, double alpha, double beta, const double* x,
               double* x_new) {
  for (int v = 0; v < n; ++v) {
    double s = 0.0;
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) s += x[col_idx[k]];
    x_new[v] = beta + alpha * s;
  }
}

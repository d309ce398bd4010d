// One synchronous sweep of min-label propagation (the core step of label-
// propagation connected components) on a graph in CSR form: every vertex takes
// the smallest label among itself and its listed neighbours, reading only the
// old labels. Returns the number of vertices whose label changed.
int min_label_sweep(int n, const int* row_ptr, const int* col_idx, const int* labels, int* new_labels) {
  int changed = 0;
  for (int v = 0; v < n; ++v) {
    int m = labels[v];
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
      int l = labels[col_idx[k]];
      if (l < m) m = l;
    }
    new_labels[v] = m;
    if (m != labels[v]) ++changed;
  }
  return changed;
}

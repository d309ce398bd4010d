// One level of top-down breadth-first search on a directed graph in CSR form.
// dist[v] is the BFS depth of v, or -1 if v has not been reached. Every vertex
// at depth `level` (the frontier) visits its out-neighbours; each neighbour
// still at -1 gets depth level + 1. Returns how many vertices were discovered.
int bfs_expand_level(int n, const int* row_ptr, const int* col_idx, int level, int* dist) {
  int found = 0;
  for (int v = 0; v < n; ++v) {
    if (dist[v] != level) continue;
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
      int u = col_idx[k];
      if (dist[u] == -1) {
        dist[u] = level + 1;
        ++found;
      }
    }
  }
  return found;
}

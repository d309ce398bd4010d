#include <cstdint>

// One level of a top-down breadth-first search on a directed graph in CSR form
// (the out-neighbours of u are col_idx[row_ptr[u] .. row_ptr[u+1])).
// frontier[u] != 0 marks the vertices discovered at distance `level`;
// dist[v] < 0 means v has not been reached yet. Every unreached out-neighbour
// of a frontier vertex gets dist level + 1 and is flagged in next_frontier
// (all other next_frontier entries are 0). The result does not depend on the
// order in which frontier vertices are processed.
void bfsExpandFrontier(int n, const int* row_ptr, const int* col_idx, const uint8_t* frontier, int level,
                       int* dist, uint8_t* next_frontier) {
  for (int v = 0; v < n; ++v) next_frontier[v] = 0;
  for (int u = 0; u < n; ++u) {
    if (!frontier[u]) continue;
    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
      int v = col_idx[k];
      if (dist[v] < 0) {
        dist[v] = level + 1;
        next_frontier[v] = 1;
      }
    }
  }
}

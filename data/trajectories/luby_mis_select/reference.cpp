#include <cstdint>

// One selection round of Luby's maximal-independent-set algorithm on a graph in
// CSR form (the out-neighbours of v are col_idx[row_ptr[v] .. row_ptr[v + 1])).
// Priorities are distinct. An active vertex is selected when no active
// out-neighbour has a higher priority; selected[v] is 1 for those vertices and
// 0 for all others. Returns the number of selected vertices.
int luby_select(int n, const int* row_ptr, const int* col_idx, const int* prio, const uint8_t* active,
                uint8_t* selected) {
  int count = 0;
  for (int v = 0; v < n; ++v) {
    bool wins = active[v] != 0;
    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
      int u = col_idx[k];
      if (active[u] && prio[u] > prio[v]) wins = false;
    }
    selected[v] = wins ? 1 : 0;
    if (wins) ++count;
  }
  return count;
}

// Label homophily count of a directed graph in CSR form (row_ptr, col_idx):
// the number of stored edges v -> u whose endpoints carry the same label.
int countSameLabelEdges(int n, const int* row_ptr, const int* col_idx, const int* labels) {
  int count = 0;
  for (int v = 0; v < n; ++v)
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
      if (labels[col_idx[e]] == labels[v]) ++count;
  return count;
}

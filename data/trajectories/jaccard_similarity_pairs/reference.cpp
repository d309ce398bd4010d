// Jaccard similarity of q vertex pairs in a graph given in CSR form with each
// neighbour list sorted ascending and free of duplicates:
// sim[p] = |N(u) & N(v)| / |N(u) | N(v)| for u = pu[p], v = pv[p], and 0 when
// both lists are empty.
void jaccard_pairs(int n, const int* row_ptr, const int* col_idx, int q, const int* pu, const int* pv,
                   float* sim) {
  (void)n;
  for (int p = 0; p < q; ++p) {
    int a = row_ptr[pu[p]], a_end = row_ptr[pu[p] + 1];
    int b = row_ptr[pv[p]], b_end = row_ptr[pv[p] + 1];
    int du = a_end - a, dv = b_end - b;
    int inter = 0;
    while (a < a_end && b < b_end) {
      if (col_idx[a] < col_idx[b]) {
        ++a;
      } else if (col_idx[a] > col_idx[b]) {
        ++b;
      } else {
        ++inter;
        ++a;
        ++b;
      }
    }
    int uni = du + dv - inter;
    sim[p] = uni > 0 ? static_cast<float>(inter) / static_cast<float>(uni) : 0.0f;
  }
}

// Out-degree distribution of a directed graph in CSR form: hist[d] counts the
// vertices with exactly d out-edges (row_ptr[v + 1] - row_ptr[v]) for
// d < nbins - 1, and the last bin hist[nbins - 1] collects every vertex of
// degree nbins - 1 or more (the usual "tail" bin of a degree plot).
// row_ptr (n + 1 non-decreasing offsets) may belong to a block of rows cut
// from a larger graph, so row_ptr[0] need not be 0. hist has nbins >= 1
// entries and is overwritten.
void degreeHistogram(int n, const int* row_ptr, int nbins, int* hist) {
  for (int b = 0; b < nbins; ++b) hist[b] = 0;
  for (int v = 0; v < n; ++v) {
    int d = row_ptr[v + 1] - row_ptr[v];
    if (d > nbins - 1) d = nbins - 1;
    ++hist[d];
  }
}

// Dot product of two sparse vectors given as (index, value) lists with indices
// in ascending order. An index may repeat; repeated entries add up (as in an
// uncompressed coordinate list), so equal-index runs are summed before being
// multiplied.
double sparse_dot_sorted(int na, const int* ia, const double* va, int nb, const int* ib, const double* vb) {
  double s = 0.0;
  int p = 0, q = 0;
  while (p < na && q < nb) {
    if (ia[p] < ib[q]) {
      ++p;
    } else if (ia[p] > ib[q]) {
      ++q;
    } else {
      int idx = ia[p];
      double sa = 0.0, sb = 0.0;
      while (p < na && ia[p] == idx) sa += va[p++];
      while (q < nb && ib[q] == idx) sb += vb[q++];
      s += sa * sb;
    }
  }
  return s;
}

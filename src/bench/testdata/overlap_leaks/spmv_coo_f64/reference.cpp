// y = A x for an n x n sparse matrix given as nnz coordinate triplets
// (row[k], col[k], val[k]), sorted by row. Rows without entries give 0.
void coo_spmv(int n, int nnz, const int* row, const int* col, const double* val, const double* x, double* y) {
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int k = 0; k < nnz; ++k) y[row[k]] += val[k] * x[col[k]];
}

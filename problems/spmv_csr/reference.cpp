// y = A * x for an n x n sparse matrix A in CSR form (row_ptr has n + 1
// entries; the column indices of row i are col_idx[row_ptr[i] .. row_ptr[i+1])).
void spmv_csr(int n, const int* row_ptr, const int* col_idx, const double* values, const double* x,
              double* y) {
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      sum += values[k] * x[col_idx[k]];
    }
    y[i] = sum;
  }
}

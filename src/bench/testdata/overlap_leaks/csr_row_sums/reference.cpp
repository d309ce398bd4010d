// Sum of the stored values of each row of an n-row CSR matrix (row_ptr has
// n + 1 entries; the values of row i are values[row_ptr[i] .. row_ptr[i+1])).
// The number of columns m only shapes the matrix; the column indices are not needed.
void csr_row_sums(int n, int m, const int* row_ptr, const double* values, double* sums) {
  (void)m;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) s += values[k];
    sums[i] = s;
  }
}

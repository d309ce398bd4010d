// Jacobi (diagonal) preconditioner of a CSR matrix: dinv[i] = 1 / A[i][i] for
// every row i of a rows x cols matrix, or 0 when row i stores no entry in
// column i (a structurally missing diagonal, or i >= cols) or stores an exact
// 0 there. Column indices are sorted ascending within each row and distinct.
void csrInverseDiagonal(int rows, int cols, const int* row_ptr, const int* col_idx,
                        const double* values, double* dinv) {
  (void)cols;
  for (int i = 0; i < rows; ++i) {
    double diag = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      if (col_idx[k] == i) {
        diag = values[k];
        break;
      }
    }
    dinv[i] = diag != 0.0 ? 1.0 / diag : 0.0;
  }
}

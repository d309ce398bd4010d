// y = A * x for a rows x cols single-precision sparse matrix in CSR form:
// row i's entries are values[k] at column col_idx[k] for k in
// [row_ptr[i], row_ptr[i + 1]). Row lengths vary widely (0 to several hundred).
void csrMatVecF32(int rows, int cols, const int* row_ptr, const int* col_idx, const float* values,
                  const float* x, float* y) {
  (void)cols;
  for (int i = 0; i < rows; ++i) {
    float sum = 0.0f;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      sum += values[k] * x[col_idx[k]];
    }
    y[i] = sum;
  }
}

// COO -> CSR conversion of the row index: given the row of every stored entry
// of a sparse matrix, sorted ascending (as after sorting COO triples by row),
// builds the CSR offsets row_ptr[0..nrows], where the entries of row r occupy
// positions row_ptr[r] .. row_ptr[r + 1] - 1. Rows without entries get an
// empty range. Every rows[k] lies in [0, nrows).
void rowOffsetsFromSortedRows(int nrows, int nnz, const int* rows, int* row_ptr) {
  for (int r = 0; r <= nrows; ++r) row_ptr[r] = 0;
  for (int k = 0; k < nnz; ++k) ++row_ptr[rows[k] + 1];
  for (int r = 0; r < nrows; ++r) row_ptr[r + 1] += row_ptr[r];
}

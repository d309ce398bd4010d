// COO -> CSR conversion of the row index: given the row of every stored entry
// of a sparse matrix, sorted ascending (as after sorting COO triples by row),
// builds the CSR offsets row_ptr[0..nrows], where the entries of row r occupy
// positions row_ptr[r] .. row_ptr[r + 1] - 1. Rows without entries get an
// empty range. Every rows[k] lies in [0, nrows). One walk over the sorted
// rows records where each row begins.
void rowOffsetsFromSortedRows(int nrows, int nnz, const int* rows, int* row_ptr) {
  int k = 0;
  for (int r = 0; r < nrows; ++r) {
    row_ptr[r] = k;
    while (k < nnz && rows[k] == r) ++k;
  }
  row_ptr[nrows] = nnz;
}

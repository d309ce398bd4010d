#include <vector>

// Sparse matrix sum C = alpha * A + beta * B of two rows x cols CSR matrices
// with sorted, distinct column indices per row (cuSPARSE's csrgeam). C's
// pattern is the union of A's and B's: each row of C lists, in increasing
// column order, every column stored in A or B, with value
// alpha * a + beta * b (a or b taken as 0 where that matrix stores nothing);
// an entry that sums to 0 is kept. c_ptr receives rows + 1 offsets; c_col and
// c_val are resized to the number of entries of C.
void csrMatrixAdd(int rows, int cols, float alpha, const int* a_ptr, const int* a_col,
                  const float* a_val, float beta, const int* b_ptr, const int* b_col,
                  const float* b_val, int* c_ptr, std::vector<int>& c_col,
                  std::vector<float>& c_val) {
  (void)cols;
  c_col.clear();
  c_val.clear();
  c_ptr[0] = 0;
  for (int i = 0; i < rows; ++i) {
    int p = a_ptr[i], q = b_ptr[i];
    const int pe = a_ptr[i + 1], qe = b_ptr[i + 1];
    while (p < pe || q < qe) {
      if (q >= qe || (p < pe && a_col[p] < b_col[q])) {
        c_col.push_back(a_col[p]);
        c_val.push_back(alpha * a_val[p]);
        ++p;
      } else if (p >= pe || b_col[q] < a_col[p]) {
        c_col.push_back(b_col[q]);
        c_val.push_back(beta * b_val[q]);
        ++q;
      } else {
        c_col.push_back(a_col[p]);
        c_val.push_back(alpha * a_val[p] + beta * b_val[q]);
        ++p;
        ++q;
      }
    }
    c_ptr[i + 1] = static_cast<int>(c_col.size());
  }
}

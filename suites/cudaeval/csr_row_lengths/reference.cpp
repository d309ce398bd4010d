#include <vector>

// Number of stored entries in each row of a CSR matrix: row_ptr has one entry
// more than there are rows, and row i owns positions row_ptr[i] .. row_ptr[i+1]-1.
void csrRowCounts(std::vector<int> const& row_ptr, std::vector<int>& counts) {
  int rows = static_cast<int>(row_ptr.size()) - 1;
  for (int i = 0; i < rows; ++i) {
    counts[i] = row_ptr[i + 1] - row_ptr[i];
  }
}

#include <limits>

// Maximum of each row of a matrix stored in CSR-like form: row r holds
// values[row_offsets[r] .. row_offsets[r+1]) (row_offsets has rows + 1
// entries). Row lengths are irregular and may be zero; an empty row's maximum
// is defined as the lowest finite float, std::numeric_limits<float>::lowest().
void segmentedRowMax(int rows, const int* row_offsets, const float* values, float* row_max) {
  for (int r = 0; r < rows; ++r) {
    float m = std::numeric_limits<float>::lowest();
    for (int k = row_offsets[r]; k < row_offsets[r + 1]; ++k) {
      if (values[k] > m) m = values[k];
    }
    row_max[r] = m;
  }
}

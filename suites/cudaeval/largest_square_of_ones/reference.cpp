#include <cstdint>
#include <vector>

// Side of the largest square block of 1 cells in a rows x cols 0/1 grid
// (row-major bytes), e.g. the largest free square area in an occupancy map or
// the largest defect-free square on a wafer map. The classic dynamic
// programme: s(i, j), the side of the largest all-ones square whose
// bottom-right corner is (i, j), is 0 on a 0 cell and
//   1 + min(s(i-1, j), s(i, j-1), s(i-1, j-1))
// on a 1 cell (missing neighbours count as 0). Kept in one row of memory.
int largestSquareOfOnes(int rows, int cols, const uint8_t* grid) {
  std::vector<int> prev(cols + 1, 0), cur(cols + 1, 0);
  int best = 0;
  for (int i = 0; i < rows; ++i) {
    cur[0] = 0;
    for (int j = 0; j < cols; ++j) {
      if (grid[static_cast<long long>(i) * cols + j]) {
        int m = prev[j + 1];
        if (cur[j] < m) m = cur[j];
        if (prev[j] < m) m = prev[j];
        cur[j + 1] = m + 1;
        if (cur[j + 1] > best) best = cur[j + 1];
      } else {
        cur[j + 1] = 0;
      }
    }
    prev.swap(cur);
  }
  return best;
}

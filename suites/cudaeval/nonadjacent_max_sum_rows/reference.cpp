#include <cstdint>

// For every row of a rows x cols integer table (row-major), the largest sum
// of a subset of the row's entries in which no two chosen entries are
// adjacent (the "house robber" dynamic programme; e.g. the best profit from
// daily opportunities when acting on one day rules out the next). Entries may
// be negative; choosing nothing is allowed, so every result is >= 0.
// take = best sum of the prefix that uses the current entry,
// skip = best sum of the prefix that does not.
void maxNonAdjacentSumRows(int rows, int cols, const int* values, int64_t* best) {
  for (int r = 0; r < rows; ++r) {
    const int* row = values + static_cast<int64_t>(r) * cols;
    int64_t take = 0, skip = 0;
    for (int c = 0; c < cols; ++c) {
      int64_t t = skip + row[c];
      skip = take > skip ? take : skip;
      take = t;
    }
    best[r] = take > skip ? take : skip;
  }
}

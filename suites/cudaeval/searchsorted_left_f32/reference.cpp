#include <cstddef>
#include <vector>

// Batched "searchsorted" (left side), as used to bin samples against sorted
// bin edges or to look up timestamps in a sorted time axis: for every query
// q, pos[i] is the number of elements of `sorted` that are strictly less
// than q, i.e. the first index at which q could be inserted while keeping the
// array sorted. `sorted` is ascending and may hold repeated values; pos has
// queries.size() entries.
void searchSortedLeft(const std::vector<float>& sorted, const std::vector<float>& queries,
                      std::vector<int>& pos) {
  for (size_t i = 0; i < queries.size(); ++i) {
    float q = queries[i];
    int lo = 0, hi = static_cast<int>(sorted.size());
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (sorted[mid] < q) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    pos[i] = lo;
  }
}

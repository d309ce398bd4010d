#include <cstddef>
#include <vector>

// Run-length decoding: run r repeats values[r] counts[r] times (counts >= 0;
// a zero-length run contributes nothing). out is passed in empty and receives
// the runs expanded in order, as when inflating RLE-compressed columns of a
// database or scan lines of an image. The output is sized once from the total
// of the counts, then every run is appended with one insert.
void runLengthDecode(const std::vector<int>& values, const std::vector<int>& counts, std::vector<int>& out) {
  size_t total = 0;
  for (int c : counts) total += static_cast<size_t>(c);
  out.clear();
  out.reserve(total);
  for (size_t r = 0; r < values.size(); ++r) out.insert(out.end(), static_cast<size_t>(counts[r]), values[r]);
}

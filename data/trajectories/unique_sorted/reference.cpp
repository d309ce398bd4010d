#include <vector>

// Removes consecutive duplicates from a sorted vector: out receives each
// distinct value once, in order (like std::unique on a copy).
void dedupSorted(std::vector<int> const& in, std::vector<int>& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || in[i] != in[i - 1]) out.push_back(in[i]);
  }
}

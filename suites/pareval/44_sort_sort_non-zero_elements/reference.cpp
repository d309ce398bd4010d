#include <algorithm>
#include <vector>

// Sorts the non-zero elements of x ascending among themselves; every zero stays
// at its position.
void sortIgnoreZero(std::vector<int> &x) {
  std::vector<int> nz;
  nz.reserve(x.size());
  for (int v : x) {
    if (v != 0) nz.push_back(v);
  }
  std::sort(nz.begin(), nz.end());
  size_t k = 0;
  for (int& v : x) {
    if (v != 0) v = nz[k++];
  }
}

#include <cstddef>
#include <cstdint>
#include <vector>

// Subset-sum reachability: reachable[s] is 1 when some subset of the items
// (each used at most once) has total weight exactly s, for every s in
// [0, cap], else 0 (the empty subset makes s = 0 reachable). The classic
// boolean dynamic programme, one pass per item from high sums to low so each
// item is counted once. Weights are positive.
void subsetSumReachable(int nitems, const int* weights, int cap, uint8_t* reachable) {
  std::vector<uint8_t> r(static_cast<size_t>(cap) + 1, 0);
  r[0] = 1;
  for (int i = 0; i < nitems; ++i) {
    int w = weights[i];
    if (w > cap) continue;
    for (int s = cap; s >= w; --s) {
      if (r[s - w]) r[s] = 1;
    }
  }
  for (int s = 0; s <= cap; ++s) reachable[s] = r[s];
}

#include <vector>

// Length of the longest strictly increasing subsequence of a, by the classic
// O(n^2) dynamic programme: L[i] = 1 + max{ L[j] : j < i, a[j] < a[i] }.
int longest_increasing_subsequence(const std::vector<int>& a) {
  int n = (int)a.size();
  std::vector<int> L(n, 1);
  int best = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j)
      if (a[j] < a[i] && L[j] + 1 > L[i]) L[i] = L[j] + 1;
    if (L[i] > best) best = L[i];
  }
  return best;
}

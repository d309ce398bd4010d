#include <cstdint>
int64_t pair_count(int n, const int* x) {
  int64_t c = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) c += x[i] < x[j];
  return c;
}

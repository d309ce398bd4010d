#include <cstdint>

// Memoised Collatz stopping times. From each start value, apply v -> v / 2
// (v even) or v -> 3v + 1 (v odd) until v < tsize; steps[i] is the number of
// steps taken plus table[v] for the value reached. tsize is at least 2.
void collatz_steps(int n, const uint32_t* start, int tsize, const int* table, int* steps) {
  for (int i = 0; i < n; ++i) {
    uint64_t v = start[i];
    int count = 0;
    while (v >= (uint64_t)tsize) {
      v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
      ++count;
    }
    steps[i] = count + table[v];
  }
}

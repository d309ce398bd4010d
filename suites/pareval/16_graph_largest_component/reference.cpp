#include <cstddef>
#include <vector>

// Breadth-first search from every vertex not reached yet; the largest search wins.
int largestComponent(std::vector<int> const& A, size_t N) {
  std::vector<char> seen(N, 0);
  std::vector<size_t> queue(N);
  size_t largest = 0;
  for (size_t s = 0; s < N; ++s) {
    if (seen[s]) continue;
    size_t head = 0, tail = 0;
    queue[tail++] = s;
    seen[s] = 1;
    while (head < tail) {
      size_t u = queue[head++];
      const int* row = A.data() + u * N;
      for (size_t v = 0; v < N; ++v) {
        if (row[v] != 0 && !seen[v]) {
          seen[v] = 1;
          queue[tail++] = v;
        }
      }
    }
    if (tail > largest) largest = tail;
  }
  return static_cast<int>(largest);
}

#include <cstddef>
#include <vector>

// Breadth-first search from source; the level at which dest is reached is the number of
// edges on a shortest path. 0 when source == dest, -1 when dest cannot be reached.
int shortestPathLength(std::vector<int> const& A, size_t N, int source, int dest) {
  if (source == dest) return 0;
  std::vector<int> dist(N, -1);
  std::vector<size_t> queue(N);
  size_t head = 0, tail = 0;
  dist[source] = 0;
  queue[tail++] = static_cast<size_t>(source);
  while (head < tail) {
    size_t u = queue[head++];
    const int* row = A.data() + u * N;
    for (size_t v = 0; v < N; ++v) {
      if (row[v] != 0 && dist[v] < 0) {
        dist[v] = dist[u] + 1;
        if (static_cast<int>(v) == dest) return dist[v];
        queue[tail++] = v;
      }
    }
  }
  return -1;
}

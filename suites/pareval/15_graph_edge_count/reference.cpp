#include <cstddef>
#include <vector>

// Every nonzero entry A[i][j] is one directed edge i -> j.
int edgeCount(std::vector<int> const& A, size_t N) {
  int edges = 0;
  for (size_t i = 0; i < N * N; ++i) edges += (A[i] != 0);
  return edges;
}

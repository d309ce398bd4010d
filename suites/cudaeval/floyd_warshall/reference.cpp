#include <vector>

// All-pairs shortest paths (Floyd-Warshall) in place on a dense n x n
// row-major matrix of non-negative integer edge weights: dist[i*n + j] is the
// length of the edge i -> j on entry and of the shortest path i -> j on exit.
// The diagonal is reset to 0 first (the empty path).
void allPairsShortestPaths(std::vector<int>& dist, int n) {
  for (int i = 0; i < n; ++i) dist[i * n + i] = 0;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      const int dik = dist[i * n + k];
      for (int j = 0; j < n; ++j) {
        int through_k = dik + dist[k * n + j];
        if (through_k < dist[i * n + j]) dist[i * n + j] = through_k;
      }
    }
  }
}

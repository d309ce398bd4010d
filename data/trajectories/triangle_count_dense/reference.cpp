#include <cstddef>
#include <cstdint>

// Number of triangles in an undirected simple graph given as a dense n x n
// symmetric 0/1 adjacency matrix (row-major, no self loops). Each triangle
// i < j < k is counted once.
int64_t count_triangles_dense(int n, const uint8_t* adj) {
  int64_t count = 0;
  for (int i = 0; i < n; ++i) {
    const uint8_t* ri = adj + static_cast<size_t>(i) * n;
    for (int j = i + 1; j < n; ++j) {
      if (!ri[j]) continue;
      const uint8_t* rj = adj + static_cast<size_t>(j) * n;
      for (int k = j + 1; k < n; ++k) count += (ri[k] & rj[k]);
    }
  }
  return count;
}

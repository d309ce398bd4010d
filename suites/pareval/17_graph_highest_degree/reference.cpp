#include <cstddef>
#include <vector>

// Degree of vertex i = number of nonzero entries in row i.
int maxDegree(std::vector<int> const& A, size_t N) {
  int best = 0;
  for (size_t i = 0; i < N; ++i) {
    int degree = 0;
    for (size_t j = 0; j < N; ++j) degree += (A[i * N + j] != 0);
    if (degree > best) best = degree;
  }
  return best;
}

#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Y = A * X with A (M x K) and X (K x N) given as COO entries in any order
// (repeated positions add up); Y is dense M x N, row-major.
void spmm(std::vector<COOElement> const& A, std::vector<COOElement> const& X, std::vector<double> &Y, size_t M, size_t K, size_t N) {
  // Group X's entries by row, keeping their order.
  std::vector<size_t> start(K + 1, 0);
  for (COOElement const& e : X) ++start[e.row + 1];
  for (size_t r = 0; r < K; ++r) start[r + 1] += start[r];
  std::vector<size_t> byRow(X.size());
  std::vector<size_t> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < X.size(); ++i) byRow[fill[X[i].row]++] = i;

  for (size_t i = 0; i < M * N; ++i) Y[i] = 0.0;
  for (COOElement const& a : A) {
    for (size_t p = start[a.column]; p < start[a.column + 1]; ++p) {
      COOElement const& b = X[byRow[p]];
      Y[a.row * N + b.column] += a.value * b.value;
    }
  }
}

#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Doolittle LU factorisation without pivoting of the N x N matrix A (COO
// entries, repeated positions add up): A = L U with L unit lower triangular
// and U upper triangular, both written in full as dense row-major N x N
// matrices (zeros outside their triangles, ones on L's diagonal).
void luFactorize(std::vector<COOElement> const& A, std::vector<double> &L, std::vector<double> &U, size_t N) {
  std::vector<double> a(N * N, 0.0);
  for (COOElement const& e : A) a[e.row * N + e.column] += e.value;
  for (size_t k = 0; k < N; ++k) {
    double pivot = a[k * N + k];
    for (size_t i = k + 1; i < N; ++i) {
      double l = a[i * N + k] / pivot;
      a[i * N + k] = l;
      for (size_t j = k + 1; j < N; ++j) a[i * N + j] -= l * a[k * N + j];
    }
  }
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < N; ++j) {
      double v = a[i * N + j];
      L[i * N + j] = i > j ? v : (i == j ? 1.0 : 0.0);
      U[i * N + j] = i <= j ? v : 0.0;
    }
  }
}

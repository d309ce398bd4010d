#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Solves A x = b for an N x N matrix A given as COO entries (repeated
// positions add up): Gaussian elimination on a dense copy with partial
// pivoting (the first row with the largest |pivot| wins), then back
// substitution. A must be nonsingular.
void solveLinearSystem(std::vector<COOElement> const& A, std::vector<double> const& b, std::vector<double> &x, size_t N) {
  std::vector<double> a(N * N, 0.0);
  for (COOElement const& e : A) a[e.row * N + e.column] += e.value;
  std::vector<double> r(b.begin(), b.begin() + N);
  for (size_t k = 0; k < N; ++k) {
    size_t p = k;
    for (size_t i = k + 1; i < N; ++i) {
      if (std::fabs(a[i * N + k]) > std::fabs(a[p * N + k])) p = i;
    }
    if (p != k) {
      for (size_t j = k; j < N; ++j) std::swap(a[k * N + j], a[p * N + j]);
      std::swap(r[k], r[p]);
    }
    double pivot = a[k * N + k];
    for (size_t i = k + 1; i < N; ++i) {
      double l = a[i * N + k] / pivot;
      if (l == 0.0) continue;
      for (size_t j = k + 1; j < N; ++j) a[i * N + j] -= l * a[k * N + j];
      r[i] -= l * r[k];
    }
  }
  for (size_t k = N; k-- > 0;) {
    double s = r[k];
    for (size_t j = k + 1; j < N; ++j) s -= a[k * N + j] * x[j];
    x[k] = s / a[k * N + k];
  }
}

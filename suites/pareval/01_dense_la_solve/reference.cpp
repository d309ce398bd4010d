#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

// Solves A x = b (A is N x N, row-major) by Gaussian elimination with partial
// pivoting on copies of A and b, then back substitution.
void solveLinearSystem(std::vector<double> const& A, std::vector<double> const& b, std::vector<double> &x, size_t N) {
  std::vector<double> U(A);
  std::vector<double> c(b);
  for (size_t k = 0; k < N; ++k) {
    size_t p = k;
    double best = std::fabs(U[k * N + k]);
    for (size_t i = k + 1; i < N; ++i) {
      double v = std::fabs(U[i * N + k]);
      if (v > best) { best = v; p = i; }
    }
    if (p != k) {
      for (size_t j = k; j < N; ++j) std::swap(U[k * N + j], U[p * N + j]);
      std::swap(c[k], c[p]);
    }
    const double pivot = U[k * N + k];
    for (size_t i = k + 1; i < N; ++i) {
      const double l = U[i * N + k] / pivot;
      for (size_t j = k + 1; j < N; ++j) U[i * N + j] -= l * U[k * N + j];
      c[i] -= l * c[k];
    }
  }
  for (size_t i = N; i-- > 0;) {
    double s = c[i];
    for (size_t j = i + 1; j < N; ++j) s -= U[i * N + j] * x[j];
    x[i] = s / U[i * N + i];
  }
}

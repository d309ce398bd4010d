#include <cstddef>
#include <vector>

// C = A B with A (M x K), B (K x N) and C (M x N), all row-major.
// i-k-j loop order: the inner loop streams a row of B into a row of C.
void gemm(std::vector<double> const& A, std::vector<double> const& B, std::vector<double> &C, size_t M, size_t K, size_t N) {
  for (size_t i = 0; i < M; ++i) {
    double* c = C.data() + i * N;
    for (size_t j = 0; j < N; ++j) c[j] = 0.0;
    for (size_t k = 0; k < K; ++k) {
      const double a = A[i * K + k];
      const double* b = B.data() + k * N;
      for (size_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

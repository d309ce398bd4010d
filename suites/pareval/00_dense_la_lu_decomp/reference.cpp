#include <cstddef>
#include <vector>

// In-place LU factorization without pivoting (Doolittle, right-looking): after
// the call the strictly lower part of A holds L (unit diagonal, not stored) and
// the upper part including the diagonal holds U, so that L U equals the input.
void luFactorize(std::vector<double> &A, size_t N) {
  for (size_t k = 0; k < N; ++k) {
    const double pivot = A[k * N + k];
    const double* rowk = A.data() + k * N;
    for (size_t i = k + 1; i < N; ++i) {
      double* rowi = A.data() + i * N;
      const double l = rowi[k] / pivot;
      rowi[k] = l;
      for (size_t j = k + 1; j < N; ++j) rowi[j] -= l * rowk[j];
    }
  }
}

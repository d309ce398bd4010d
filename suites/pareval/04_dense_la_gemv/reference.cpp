#include <cstddef>
#include <vector>

// y = A x, with A an M x N row-major matrix, x of length N and y of length M.
void gemv(std::vector<double> const& A, std::vector<double> const& x, std::vector<double> &y, size_t M, size_t N) {
  for (size_t i = 0; i < M; ++i) {
    const double* row = A.data() + i * N;
    double sum = 0.0;
    for (size_t j = 0; j < N; ++j) sum += row[j] * x[j];
    y[i] = sum;
  }
}

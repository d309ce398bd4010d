#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// y = alpha * A * x + beta * y for an M x N matrix A given as COO entries in
// any order; entries with the same (row, column) add up.
void spmv(double alpha, std::vector<COOElement> const& A, std::vector<double> const& x, double beta, std::vector<double> &y, size_t M, size_t N) {
  (void)N;
  for (size_t i = 0; i < M; ++i) y[i] *= beta;
  for (COOElement const& e : A) y[e.row] += alpha * e.value * x[e.column];
}

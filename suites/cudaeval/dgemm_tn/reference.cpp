#include <vector>

// C = A^T * B in double precision. A is stored K x M row-major (so A^T is
// M x K), B is K x N row-major and C is M x N row-major:
//   C[i][j] = sum over k of A[k][i] * B[k][j].
void dgemmTransA(std::vector<double> const& A, std::vector<double> const& B, std::vector<double>& C, int M,
                 int N, int K) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double sum = 0.0;
      for (int k = 0; k < K; ++k) {
        sum += A[k * M + i] * B[k * N + j];
      }
      C[i * N + j] = sum;
    }
  }
}

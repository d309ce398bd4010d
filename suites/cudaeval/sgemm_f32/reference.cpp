// General matrix multiply in single precision, row-major storage:
//   C = alpha * A * B + beta * C
// with A M x K, B K x N, C M x N.
void sgemmRowMajor(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) {
        sum += A[i * K + k] * B[k * N + j];
      }
      C[i * N + j] = alpha * sum + beta * C[i * N + j];
    }
  }
}

// C = alpha * A + beta * B for rows x cols matrices stored row-major.
void scaledMatrixSum(int rows, int cols, float alpha, const float* A, float beta, const float* B,
                     float* C) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      int idx = i * cols + j;
      C[idx] = alpha * A[idx] + beta * B[idx];
    }
  }
}

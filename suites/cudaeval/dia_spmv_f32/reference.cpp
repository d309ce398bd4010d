// Sparse matrix-vector product y = A x for an n x n matrix in DIA (diagonal)
// format, as banded discretisations store it: ndiag diagonals with offsets
// offsets[d] (0 is the main diagonal, k > 0 the k-th superdiagonal, k < 0 a
// subdiagonal), and data[d * n + i] = A[i][i + offsets[d]]. Slots whose
// column i + offsets[d] falls outside [0, n) are padding and are never read.
// Diagonals are accumulated in the order they are stored.
void diaSpmv(int n, int ndiag, const int* offsets, const float* data, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int d = 0; d < ndiag; ++d) {
      int j = i + offsets[d];
      if (j >= 0 && j < n) sum += data[static_cast<long long>(d) * n + i] * x[j];
    }
    y[i] = sum;
  }
}

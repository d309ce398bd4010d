#include <cstddef>

// Symmetric part of a square row-major matrix: S = (A + A^T) / 2, i.e.
// S[i][j] = 0.5 * (A[i][j] + A[j][i]) for an n x n float matrix A.
void symmetric_part(int n, const float* A, float* S) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      S[(size_t)i * n + j] = 0.5f * (A[(size_t)i * n + j] + A[(size_t)j * n + i]);
}

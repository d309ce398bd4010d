#include <cstddef>

// C[b] = A[b] * B[b] for a batch of 4x4 row-major float matrices stored back to
// back (16 floats per matrix).
void batched_matmul_4x4(int batch, const float* A, const float* B, float* C) {
  for (int b = 0; b < batch; ++b) {
    const float* a = A + static_cast<size_t>(b) * 16;
    const float* m = B + static_cast<size_t>(b) * 16;
    float* c = C + static_cast<size_t>(b) * 16;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        float s = 0.0f;
        for (int p = 0; p < 4; ++p) s += a[i * 4 + p] * m[p * 4 + j];
        c[i * 4 + j] = s;
      }
    }
  }
}

#include <cstddef>

// y_b = M_b x_b for a batch of small d x d row-major float matrices stored back
// to back (d*d floats each); x and y hold d floats per batch entry.
void batched_small_matvec(int batch, int d, const float* M, const float* x, float* y) {
  for (int b = 0; b < batch; ++b) {
    const float* m = M + static_cast<size_t>(b) * d * d;
    const float* xb = x + static_cast<size_t>(b) * d;
    float* yb = y + static_cast<size_t>(b) * d;
    for (int r = 0; r < d; ++r) {
      float s = 0.0f;
      for (int c = 0; c < d; ++c) s += m[r * d + c] * xb[c];
      yb[r] = s;
    }
  }
}

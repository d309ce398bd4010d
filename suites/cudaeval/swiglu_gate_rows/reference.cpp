#include <cmath>

// SwiGLU gate of a transformer feed-forward block. Each of the rows rows of h
// holds 2 * d values: the gate projection g = h[r][0 .. d) followed by the up
// projection u = h[r][d .. 2d). The output (rows x d, row-major) is
//   out[r][j] = silu(g[j]) * u[j],  silu(a) = a / (1 + exp(-a)).
void swigluGateRows(int rows, int d, const float* h, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* g = h + static_cast<long long>(r) * 2 * d;
    const float* u = g + d;
    float* o = out + static_cast<long long>(r) * d;
    for (int j = 0; j < d; ++j) {
      const float a = g[j];
      o[j] = a / (1.0f + std::exp(-a)) * u[j];
    }
  }
}

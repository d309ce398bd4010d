#include <cmath>
#include <cstddef>

// Discrete Gauss transform in the plane: for every target point (tx[i], ty[i])
// phi[i] = sum_j q[j] * exp(-alpha * |t_i - s_j|^2) over the n weighted source
// points (sx[j], sy[j], q[j]), summed in increasing j.
void gaussian_sum_eval(int m, int n, float alpha, const float* tx, const float* ty,
                       const float* sx, const float* sy, const float* q, float* phi) {
  for (int i = 0; i < m; ++i) {
    float s = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = tx[i] - sx[j];
      float dy = ty[i] - sy[j];
      s += q[j] * std::exp(-alpha * (dx * dx + dy * dy));
    }
    phi[i] = s;
  }
}

#include <cmath>
#include <cstddef>
#include <vector>

// One Jacobi pass of distance-constraint projection on a W x H grid of cloth
// particles (xyz interleaved, particle index row * W + column). Every pair of
// horizontal and vertical neighbours should be `rest` apart; each constraint
// moves both endpoints half of its length error along their connecting line,
// all corrections are computed from the old positions and summed, and the sum
// is applied scaled by `stiffness`. Coincident endpoints are left alone.
static void project(const float* pos, float* delta, int p, int q, float rest) {
  float dx = pos[3 * q] - pos[3 * p];
  float dy = pos[3 * q + 1] - pos[3 * p + 1];
  float dz = pos[3 * q + 2] - pos[3 * p + 2];
  float len = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (len <= 1e-6f) return;
  float s = 0.5f * (len - rest) / len;
  delta[3 * p] += s * dx;
  delta[3 * p + 1] += s * dy;
  delta[3 * p + 2] += s * dz;
  delta[3 * q] -= s * dx;
  delta[3 * q + 1] -= s * dy;
  delta[3 * q + 2] -= s * dz;
}

void cloth_jacobi_pass(int W, int H, float rest, float stiffness, const float* pos, float* new_pos) {
  size_t count = static_cast<size_t>(W) * H * 3;
  std::vector<float> delta(count, 0.0f);
  for (int r = 0; r < H; ++r)
    for (int c = 0; c + 1 < W; ++c) project(pos, delta.data(), r * W + c, r * W + c + 1, rest);
  for (int r = 0; r + 1 < H; ++r)
    for (int c = 0; c < W; ++c) project(pos, delta.data(), r * W + c, (r + 1) * W + c, rest);
  for (size_t k = 0; k < count; ++k) new_pos[k] = pos[k] + stiffness * delta[k];
}

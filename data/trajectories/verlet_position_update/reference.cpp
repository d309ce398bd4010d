#include <cstddef>

// Velocity-Verlet position update for n particles with interleaved xyz
// coordinates (3 floats per particle): x' = x + v dt + a dt^2 / 2.
void verlet_positions(int n, float dt, const float* pos, const float* vel, const float* acc, float* new_pos) {
  size_t total = static_cast<size_t>(n) * 3;
  float half_dt2 = 0.5f * dt * dt;
  for (size_t k = 0; k < total; ++k) new_pos[k] = pos[k] + vel[k] * dt + acc[k] * half_dt2;
}

#include <cmath>
#include <vector>

// One semi-implicit Euler step of a 2-D mass-spring network (cloth, soft
// bodies, graph layout). Spring s joins particles ei[s] and ej[s] with rest
// length rest[s] and the common stiffness k; it pulls both ends along their
// connecting line with force k (len - rest) (a spring whose ends coincide, or
// that joins a particle to itself, exerts nothing). Every particle also feels
// a linear drag -damping * v. Positions and velocities are interleaved xy.
// Then v += dt F / m and x += dt v (with the new velocity).
void springNetworkStep(int n, int m, const int* ei, const int* ej, const float* rest, float k,
                       float damping, float dt, const float* mass, float* pos, float* vel) {
  std::vector<float> force(2 * static_cast<size_t>(n), 0.0f);
  for (int s = 0; s < m; ++s) {
    int a = ei[s], b = ej[s];
    float dx = pos[2 * b] - pos[2 * a];
    float dy = pos[2 * b + 1] - pos[2 * a + 1];
    float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-6f) continue;
    float f = k * (len - rest[s]) / len;
    force[2 * a] += f * dx;
    force[2 * a + 1] += f * dy;
    force[2 * b] -= f * dx;
    force[2 * b + 1] -= f * dy;
  }
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 2; ++d) {
      float fi = force[2 * i + d] - damping * vel[2 * i + d];
      vel[2 * i + d] += dt * fi / mass[i];
      pos[2 * i + d] += dt * vel[2 * i + d];
    }
  }
}

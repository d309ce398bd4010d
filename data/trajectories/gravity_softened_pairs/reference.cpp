#include <cmath>

struct Body {
  float x, y, z, m;
};

// Gravitational potential energy of every body in a softened N-body system
// (G = 1): energy[i] = -m_i * sum over j != i of m_j / sqrt(|r_i - r_j|^2 + eps^2).
void softened_potential_energy(int n, const Body* bodies, float eps, float* energy) {
  float eps2 = eps * eps;
  for (int i = 0; i < n; ++i) {
    const Body& bi = bodies[i];
    float s = 0.0f;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      float dx = bodies[j].x - bi.x;
      float dy = bodies[j].y - bi.y;
      float dz = bodies[j].z - bi.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      s += bodies[j].m / std::sqrt(r2);
    }
    energy[i] = -bi.m * s;
  }
}

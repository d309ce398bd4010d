#include <cmath>

struct MassPoint {
  float x, y, z, m;
};

// Softened gravitational potential (G = 1) at np probe points produced by nb
// point masses: phi[p] = -sum_j m_j / sqrt(|p - b_j|^2 + soft^2).
void gravity_potential_probes(int np, int nb, const float* px, const float* py, const float* pz,
                              const MassPoint* bodies, float soft, float* phi) {
  float s2 = soft * soft;
  for (int p = 0; p < np; ++p) {
    float acc = 0.0f;
    for (int j = 0; j < nb; ++j) {
      float dx = px[p] - bodies[j].x;
      float dy = py[p] - bodies[j].y;
      float dz = pz[p] - bodies[j].z;
      acc += bodies[j].m / std::sqrt(dx * dx + dy * dy + dz * dz + s2);
    }
    phi[p] = -acc;
  }
}

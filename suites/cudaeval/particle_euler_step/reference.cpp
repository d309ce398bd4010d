#include <vector>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
};

// One explicit (forward) Euler step: every particle moves by its velocity
// times dt. Velocities are left unchanged.
void eulerAdvance(std::vector<Particle>& particles, float dt) {
  for (Particle& p : particles) {
    p.x += p.vx * dt;
    p.y += p.vy * dt;
    p.z += p.vz * dt;
  }
}

struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass, charge;
};

// Kinetic energy 0.5 * m * |v|^2 of every particle of an array-of-structs
// particle store (positions and charges are carried along but not needed).
void particle_kinetic_energy(int n, const Particle* particles, float* ke) {
  for (int i = 0; i < n; ++i) {
    const Particle& p = particles[i];
    float v2 = p.vx * p.vx + p.vy * p.vy + p.vz * p.vz;
    ke[i] = 0.5f * p.mass * v2;
  }
}

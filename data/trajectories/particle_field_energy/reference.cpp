struct Particle {
  float x, y, z, vx, vy, vz, mass, charge;
};

// Energy of each charged particle in a uniform electric field E = (ex, ey, ez):
//   energy[i] = 0.5 * mass * |v|^2 - charge * (E . r).
void particle_field_energy(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  for (int i = 0; i < n; ++i) {
    const Particle& q = p[i];
    float kinetic = 0.5f * q.mass * (q.vx * q.vx + q.vy * q.vy + q.vz * q.vz);
    float work = q.charge * (ex * q.x + ey * q.y + ez * q.z);
    energy[i] = kinetic - work;
  }
}

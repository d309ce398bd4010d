// Advances n independent mass-spring oscillators by 16 symplectic-Euler steps
// of size dt: a = -k x / m, then v += dt a, then x += dt v.
void oscillatorSteps(int n, const float* mass, const float* stiffness, float dt, float* pos,
                     float* vel) {
  const int steps = 16;
  for (int i = 0; i < n; ++i) {
    float x = pos[i], v = vel[i];
    for (int s = 0; s < steps; ++s) {
      float a = -stiffness[i] * x / mass[i];
      v += dt * a;
      x += dt * v;
    }
    pos[i] = x;
    vel[i] = v;
  }
}

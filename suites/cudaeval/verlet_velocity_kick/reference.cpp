// Velocity half of a velocity-Verlet step with forces already computed:
// after the positions were advanced and the new forces evaluated, every
// particle's velocity is updated with the average of its old and new force,
//   v += dt * (f_old + f_new) / (2 m).
// Velocities and forces are interleaved xyz (3 floats per particle); masses
// are per particle and positive.
void velocityVerletKick(int n, float dt, const float* mass, const float* f_old, const float* f_new,
                        float* vel) {
  for (int i = 0; i < n; ++i) {
    float scale = 0.5f * dt / mass[i];
    for (int d = 0; d < 3; ++d) {
      int k = 3 * i + d;
      vel[k] += scale * (f_old[k] + f_new[k]);
    }
  }
}

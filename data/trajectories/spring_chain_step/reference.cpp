// One semi-implicit Euler step of a chain of n equal masses joined by identical
// springs (stiffness k, free ends). u holds displacements from rest, v
// velocities; the spring forces come from the old displacements, the new
// velocity is used to advance the displacement.
void spring_chain_step(int n, float k, float mass, float dt, const float* u, const float* v, float* u_new,
                       float* v_new) {
  for (int i = 0; i < n; ++i) {
    float f = 0.0f;
    if (i > 0) f += k * (u[i - 1] - u[i]);
    if (i + 1 < n) f += k * (u[i + 1] - u[i]);
    float a = f / mass;
    v_new[i] = v[i] + dt * a;
    u_new[i] = u[i] + dt * v_new[i];
  }
}

// Removes the centre-of-mass motion of a particle system, as molecular
// dynamics does at start-up and periodically to stop the whole system from
// drifting: the total momentum P = sum m_i v_i and the total mass M = sum m_i
// are accumulated in double, and V = P / M is subtracted from every velocity.
// Velocities are interleaved xyz (3 floats per particle). n >= 1 and masses
// are positive.
void removeComMotion(int n, const float* mass, float* vel) {
  double px = 0.0, py = 0.0, pz = 0.0, total = 0.0;
  for (int i = 0; i < n; ++i) {
    double m = mass[i];
    px += m * vel[3 * i];
    py += m * vel[3 * i + 1];
    pz += m * vel[3 * i + 2];
    total += m;
  }
  float vx = static_cast<float>(px / total);
  float vy = static_cast<float>(py / total);
  float vz = static_cast<float>(pz / total);
  for (int i = 0; i < n; ++i) {
    vel[3 * i] -= vx;
    vel[3 * i + 1] -= vy;
    vel[3 * i + 2] -= vz;
  }
}

#include <cmath>

// Direct-summation gravitational accelerations (G = 1) with Plummer
// softening: for every body i,
//   a_i = sum over j of m_j * (r_j - r_i) / (|r_j - r_i|^2 + softening^2)^(3/2).
// The j = i term is included; it is zero because the softening keeps the
// denominator positive. Positions are given as separate x, y, z arrays.
void softenedGravityAccel(int n, const float* px, const float* py, const float* pz, const float* mass,
                          float softening, float* ax, float* ay, float* az) {
  const float eps2 = softening * softening;
  for (int i = 0; i < n; ++i) {
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = px[j] - px[i];
      float dy = py[j] - py[i];
      float dz = pz[j] - pz[i];
      float d2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = 1.0f / std::sqrt(d2);
      float s = mass[j] * (inv * inv * inv);
      sx += s * dx;
      sy += s * dy;
      sz += s * dz;
    }
    ax[i] = sx;
    ay[i] = sy;
    az[i] = sz;
  }
}

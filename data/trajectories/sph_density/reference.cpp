#include <cmath>

// SPH density with the 3-D cubic spline kernel of support 2h:
// rho_i = sum over all j (including i itself) of m_j W(|r_i - r_j|, h), with
// W(r, h) = sigma * (1 - 1.5 q^2 + 0.75 q^3)  for q = r/h < 1,
//           sigma * 0.25 (2 - q)^3              for 1 <= q < 2,  0 beyond,
// and sigma = 1 / (pi h^3). Positions are given as separate x, y, z arrays.
void sph_density_cubic(int n, const float* px, const float* py, const float* pz, const float* mass, float h,
                       float* rho) {
  const float pi = 3.14159265358979f;
  float sigma = 1.0f / (pi * h * h * h);
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = px[j] - px[i];
      float dy = py[j] - py[i];
      float dz = pz[j] - pz[i];
      float r = std::sqrt(dx * dx + dy * dy + dz * dz);
      float q = r / h;
      float w;
      if (q < 1.0f) {
        w = 1.0f - 1.5f * q * q + 0.75f * q * q * q;
      } else if (q < 2.0f) {
        float t = 2.0f - q;
        w = 0.25f * t * t * t;
      } else {
        w = 0.0f;
      }
      s += mass[j] * w;
    }
    rho[i] = sigma * s;
  }
}

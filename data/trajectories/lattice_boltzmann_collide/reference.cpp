#include <cstddef>

// BGK collision step of a D2Q9 lattice Boltzmann model, applied to every cell
// independently. The 9 populations of cell c are stored contiguously
// (f[c*9 + i]), directions ordered rest, E, N, W, S, NE, NW, SW, SE. Each
// population relaxes towards the local equilibrium with rate omega = 1/tau.
void lbm_bgk_collide(int ncells, float omega, const float* f_in, float* f_out) {
  static const float w[9] = {4.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f,
                             1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
  static const int ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
  static const int ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
  for (int c = 0; c < ncells; ++c) {
    const float* f = f_in + static_cast<size_t>(c) * 9;
    float* out = f_out + static_cast<size_t>(c) * 9;
    float rho = 0.0f, jx = 0.0f, jy = 0.0f;
    for (int i = 0; i < 9; ++i) {
      rho += f[i];
      jx += ex[i] * f[i];
      jy += ey[i] * f[i];
    }
    float ux = jx / rho, uy = jy / rho;
    float usq = ux * ux + uy * uy;
    for (int i = 0; i < 9; ++i) {
      float eu = ex[i] * ux + ey[i] * uy;
      float feq = w[i] * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - 1.5f * usq);
      out[i] = f[i] - omega * (f[i] - feq);
    }
  }
}

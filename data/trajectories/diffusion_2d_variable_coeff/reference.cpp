// One explicit step of 2-D diffusion with a spatially varying diffusivity kappa on
// an nx x ny grid (row-major, x fastest), in conservative flux form: the
// coefficient on each cell face is the mean of the two adjacent cells,
//   out = u + dt * (kE (uE - u) - kW (u - uW) + kS (uS - u) - kN (u - uN)).
// Boundary cells keep their value.
void diffuse_variable_coeff(int nx, int ny, float dt, const float* u, const float* kappa, float* out) {
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      int k = j * nx + i;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        out[k] = u[k];
        continue;
      }
      float kE = 0.5f * (kappa[k] + kappa[k + 1]);
      float kW = 0.5f * (kappa[k] + kappa[k - 1]);
      float kS = 0.5f * (kappa[k] + kappa[k + nx]);
      float kN = 0.5f * (kappa[k] + kappa[k - nx]);
      float flux = kE * (u[k + 1] - u[k]) - kW * (u[k] - u[k - 1]) + kS * (u[k + nx] - u[k]) - kN * (u[k] - u[k - nx]);
      out[k] = u[k] + dt * flux;
    }
  }
}

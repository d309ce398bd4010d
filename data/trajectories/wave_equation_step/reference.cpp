// One leapfrog time step of the 2-D wave equation on an nx x ny grid (row-major,
// x fastest) with fixed zero boundaries:
//   u_next = 2 u - u_prev + courant2 * (5-point Laplacian of u),
// where courant2 = (c dt / h)^2. Boundary points of u_next are 0.
void wave_leapfrog_step(int nx, int ny, float courant2, const float* u_prev, const float* u_curr, float* u_next) {
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      int k = j * nx + i;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        u_next[k] = 0.0f;
        continue;
      }
      float c = u_curr[k];
      float lap = u_curr[k - 1] + u_curr[k + 1] + u_curr[k - nx] + u_curr[k + nx] - 4.0f * c;
      u_next[k] = 2.0f * c - u_prev[k] + courant2 * lap;
    }
  }
}

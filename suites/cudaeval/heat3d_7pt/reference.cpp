// One explicit (forward Euler) step of the 3-D heat equation on an
// nx x ny x nz grid, index (z * ny + y) * nx + x. Interior cells get
//   unew = u + alpha * (sum of the six face neighbours - 6 u)
// and boundary cells (any coordinate on the first or last layer) keep their
// value (fixed Dirichlet boundary).
void heatStep3d(const double* u, double* unew, int nx, int ny, int nz, double alpha) {
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        long long i = ((long long)z * ny + y) * nx + x;
        double c = u[i];
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
          unew[i] = c;
          continue;
        }
        long long plane = (long long)nx * ny;
        double lap = u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + u[i - plane] + u[i + plane] - 6.0 * c;
        unew[i] = c + alpha * lap;
      }
    }
  }
}

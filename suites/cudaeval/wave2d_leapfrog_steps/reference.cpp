#include <utility>
#include <vector>

// Explicit leapfrog time stepping of the 2-D scalar wave equation on an
// nx x ny grid (row-major, row = y) with fixed (Dirichlet) border values:
// u holds the field at the current time level and u_prev at the previous
// one; each of `steps` steps computes, for interior cells,
//   next = 2 u - u_prev + c2 * (uW + uE + uN + uS - 4 u)
// (c2 = (c dt / dx)^2 <= 0.5 for stability), copies the border of u into
// next, and shifts the levels (u_prev <- u, u <- next). On return u and
// u_prev hold the last two levels. nx, ny >= 1, steps >= 0.
void waveLeapfrog(std::vector<float>& u, std::vector<float>& u_prev, int nx, int ny, int steps, float c2) {
  std::vector<float> next(u.size());
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        int c = y * nx + x;
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
          next[c] = u[c];
        } else {
          float lap = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] - 4.0f * u[c];
          next[c] = 2.0f * u[c] - u_prev[c] + c2 * lap;
        }
      }
    }
    std::swap(u_prev, u);
    std::swap(u, next);
  }
}

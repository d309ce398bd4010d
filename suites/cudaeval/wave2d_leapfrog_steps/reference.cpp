#include <cstddef>
#include <utility>
#include <vector>

// Explicit leapfrog time stepping of the 2-D scalar wave equation on an
// nx x ny grid (row-major, row = y) with fixed (Dirichlet) border values:
// u holds the field at the current time level and u_prev at the previous
// one; each of `steps` steps forms the next level, whose interior cells are
//   2 u - u_prev + c2 * (uW + uE + uN + uS - 4 u)
// (c2 = (c dt / dx)^2 <= 0.5 for stability) and whose border cells keep the
// values of u, then shifts the levels (u_prev <- u, u <- next). On return u
// and u_prev hold the last two levels. nx, ny >= 1, steps >= 0.
void waveLeapfrog(std::vector<float>& u, std::vector<float>& u_prev, int nx, int ny, int steps, float c2) {
  std::vector<float> next;
  for (int s = 0; s < steps; ++s) {
    next = u;  // the border is carried over; the interior is overwritten below
    for (int y = 1; y + 1 < ny; ++y) {
      const float* above = &u[static_cast<size_t>(y - 1) * nx];
      const float* row = &u[static_cast<size_t>(y) * nx];
      const float* below = &u[static_cast<size_t>(y + 1) * nx];
      const float* old = &u_prev[static_cast<size_t>(y) * nx];
      float* dst = &next[static_cast<size_t>(y) * nx];
      for (int x = 1; x + 1 < nx; ++x) {
        float lap = row[x - 1] + row[x + 1] + above[x] + below[x] - 4.0f * row[x];
        dst[x] = 2.0f * row[x] - old[x] + c2 * lap;
      }
    }
    std::swap(u_prev, u);
    std::swap(u, next);
  }
}

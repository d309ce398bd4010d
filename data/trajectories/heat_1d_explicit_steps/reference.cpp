#include <vector>

// Explicit finite-difference time stepping of the 1-D heat equation with fixed
// (Dirichlet) end values: `steps` times,
//   u_new[i] = u[i] + r * (u[i-1] - 2 u[i] + u[i+1])   for 0 < i < n-1,
// with r = alpha dt / dx^2 <= 1/2 for stability. u is updated in place.
void heat1d_explicit(std::vector<double>& u, int steps, double r) {
  int n = (int)u.size();
  std::vector<double> cur(u), nxt(u);
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < n - 1; ++i) nxt[i] = cur[i] + r * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    cur.swap(nxt);
  }
  u = cur;
}

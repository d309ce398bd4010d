#include <vector>

// First-order upwind scheme for the 1-D linear advection equation u_t + a u_x = 0
// (a > 0) on a periodic grid of n cells, advanced `steps` times with Courant
// number courant = a dt / dx:
//   u_new[i] = u[i] - courant * (u[i] - u[i-1]),  with u[-1] = u[n-1].
void advect_upwind_periodic(int n, int steps, float courant, const float* u0, float* u) {
  std::vector<float> cur(u0, u0 + n), nxt(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      float left = cur[i == 0 ? n - 1 : i - 1];
      nxt[i] = cur[i] - courant * (cur[i] - left);
    }
    cur.swap(nxt);
  }
  for (int i = 0; i < n; ++i) u[i] = cur[i];
}

// One Lax-Friedrichs time step of the inviscid Burgers equation
// u_t + (u^2 / 2)_x = 0 on a periodic 1-D grid of n cells (n >= 1):
//   u_new[i] = (u[i-1] + u[i+1]) / 2 - c / 2 * (f(u[i+1]) - f(u[i-1])),
// with f(u) = u * u / 2, c = dt / dx, and the indices wrapping around.
void burgersLaxFriedrichsStep(const double* u, double* u_new, int n, double c) {
  for (int i = 0; i < n; ++i) {
    int im = (i == 0) ? n - 1 : i - 1;
    int ip = (i == n - 1) ? 0 : i + 1;
    double fl = 0.5 * u[im] * u[im];
    double fr = 0.5 * u[ip] * u[ip];
    u_new[i] = 0.5 * (u[im] + u[ip]) - 0.5 * c * (fr - fl);
  }
}

#include <vector>

// Red-black successive over-relaxation for the 2-D Poisson problem
// -laplacian(u) = f on an nx x ny grid (row-major, row = y) with fixed
// (Dirichlet) border values, in place. Each of `iters` iterations updates
// first the red interior cells ((x + y) even), then the black ones, each as
//   u = (1 - omega) * u + omega / 4 * (uW + uE + uN + uS + h2 * f),
// a black cell seeing the red values of the same iteration. nx, ny >= 1,
// iters >= 0, 0 < omega < 2.
void redBlackSor(std::vector<float>& u, const std::vector<float>& f, int nx, int ny, int iters, float omega,
                 float h2) {
  const float w4 = omega * 0.25f;
  for (int it = 0; it < iters; ++it) {
    for (int color = 0; color < 2; ++color) {
      for (int y = 1; y < ny - 1; ++y) {
        for (int x = 1 + (y + 1 + color) % 2; x < nx - 1; x += 2) {
          int c = y * nx + x;
          float sum = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + h2 * f[c];
          u[c] = (1.0f - omega) * u[c] + w4 * sum;
        }
      }
    }
  }
}

#include <cmath>

// Convergence check of an iterative Poisson solver: the largest absolute
// residual |f + laplacian(u)| over the interior cells of an nx x ny grid
// (row-major, row = y), with the 5-point Laplacian
//   laplacian(u)[y][x] = (u[y][x-1] + u[y][x+1] + u[y-1][x] + u[y+1][x]
//                         - 4 u[y][x]) * inv_h2
// for the problem -laplacian(u) = f. Border cells (Dirichlet values) are not
// checked; a grid without interior cells gives 0. nx, ny >= 1.
float poissonResidualMax(const float* u, const float* f, int nx, int ny, float inv_h2) {
  float worst = 0.0f;
  for (int y = 1; y < ny - 1; ++y) {
    for (int x = 1; x < nx - 1; ++x) {
      int c = y * nx + x;
      float lap = (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] - 4.0f * u[c]) * inv_h2;
      float r = std::fabs(f[c] + lap);
      if (r > worst) worst = r;
    }
  }
  return worst;
}

#include <cstddef>
#include <vector>

// Conjugate-gradient iterations for the 2-D Poisson problem A x = b on an
// nx x ny grid of unknowns (row-major, row = y), A being the 5-point
// negative Laplacian with zero Dirichlet values outside the grid:
//   (A v)[y][x] = 4 v[y][x] - v[y][x-1] - v[y][x+1] - v[y-1][x] - v[y+1][x]
// (neighbours outside the grid count as 0). Starting from the guess in x,
// it runs at most `iters` CG iterations in double precision and stops early
// once r.r <= 1e-24 * r0.r0 (r0 the initial residual); x is updated in place.
// Nothing changes when the initial residual is 0. nx, ny >= 1, iters >= 0.
static void ApplyLaplacian(const std::vector<double>& v, std::vector<double>& out, int nx, int ny) {
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      size_t c = static_cast<size_t>(y) * nx + x;
      double s = 4.0 * v[c];
      if (x > 0) s -= v[c - 1];
      if (x < nx - 1) s -= v[c + 1];
      if (y > 0) s -= v[c - nx];
      if (y < ny - 1) s -= v[c + nx];
      out[c] = s;
    }
  }
}

static double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void cgPoisson2d(std::vector<double>& x, const std::vector<double>& b, int nx, int ny, int iters) {
  const size_t n = static_cast<size_t>(nx) * ny;
  std::vector<double> r(n), p(n), ap(n);
  ApplyLaplacian(x, ap, nx, ny);
  for (size_t i = 0; i < n; ++i) r[i] = b[i] - ap[i];
  p = r;
  const double rr0 = Dot(r, r);
  if (rr0 == 0.0) return;
  double rr = rr0;
  for (int it = 0; it < iters; ++it) {
    ApplyLaplacian(p, ap, nx, ny);
    const double alpha = rr / Dot(p, ap);
    for (size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
    }
    const double rr_new = Dot(r, r);
    if (rr_new <= 1e-24 * rr0) break;
    const double beta = rr_new / rr;
    for (size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    rr = rr_new;
  }
}

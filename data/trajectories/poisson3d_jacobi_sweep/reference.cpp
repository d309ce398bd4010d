#include <cstddef>

// One Jacobi sweep for the 3-D Poisson problem -lap(u) = f on an
// nx x ny x nz grid with spacing h, stored with k (the nz axis) fastest:
// index (i*ny + j)*nz + k. Interior points get the average of their six
// neighbours plus h^2 f / 6; boundary points keep their value (Dirichlet).
void poisson_jacobi3d(int nx, int ny, int nz, float h, const float* u, const float* f,
                      float* out) {
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) {
        size_t c = ((size_t)i * ny + j) * nz + k;
        if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) {
          out[c] = u[c];
          continue;
        }
        float s = u[((size_t)(i - 1) * ny + j) * nz + k] + u[((size_t)(i + 1) * ny + j) * nz + k] +
                  u[((size_t)i * ny + (j - 1)) * nz + k] + u[((size_t)i * ny + (j + 1)) * nz + k] +
                  u[c - 1] + u[c + 1] + h * h * f[c];
        out[c] = s / 6.0f;
      }
}

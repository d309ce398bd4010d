// Five-point Laplacian of a scalar field u on an nx x ny grid (row-major, x
// fastest), scaled by inv_h2 = 1/h^2. Points on the outer ring of the grid have
// no complete neighbourhood and get 0.
void laplacian_5pt(int nx, int ny, float inv_h2, const float* u, float* lap) {
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      int k = j * nx + i;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        lap[k] = 0.0f;
        continue;
      }
      float s = u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx];
      lap[k] = (s - 4.0f * u[k]) * inv_h2;
    }
  }
}

// 2-D histogram of points (xs[i], ys[i]) in the unit square on an nx x ny grid
// of equal cells; counts is row-major with one row per y cell. Coordinates of
// exactly 1 fall into the last cell.
void jointHistogram2D(int n, const float* xs, const float* ys, int nx, int ny, int* counts) {
  for (int c = 0; c < nx * ny; ++c) counts[c] = 0;
  for (int i = 0; i < n; ++i) {
    int ix = static_cast<int>(xs[i] * nx);
    int iy = static_cast<int>(ys[i] * ny);
    if (ix >= nx) ix = nx - 1;
    if (iy >= ny) iy = ny - 1;
    counts[iy * nx + ix] += 1;
  }
}

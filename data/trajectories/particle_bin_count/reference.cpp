// Counts particles per cell of a uniform gx x gy grid over the unit square
// [0,1) x [0,1). Particle p falls in column min(int(px*gx), gx-1) and row
// min(int(py*gy), gy-1); counts is row-major (row * gx + column).
void count_particles_per_cell(int n, const float* px, const float* py, int gx, int gy, int* counts) {
  for (int c = 0; c < gx * gy; ++c) counts[c] = 0;
  for (int p = 0; p < n; ++p) {
    int cx = static_cast<int>(px[p] * gx);
    int cy = static_cast<int>(py[p] * gy);
    if (cx > gx - 1) cx = gx - 1;
    if (cy > gy - 1) cy = gy - 1;
    if (cx < 0) cx = 0;
    if (cy < 0) cy = 0;
    ++counts[cy * gx + cx];
  }
}

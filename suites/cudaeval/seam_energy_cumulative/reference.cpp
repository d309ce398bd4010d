// The cumulative minimum-energy map of seam carving (content-aware image
// resizing): cum[0][j] = energy[0][j], and for every later row
//   cum[i][j] = energy[i][j] + min(cum[i-1][j-1], cum[i-1][j], cum[i-1][j+1]),
// where neighbours outside the image are left out. cum[i][j] is the energy of
// the cheapest 8-connected vertical seam from the top row to pixel (i, j); the
// seam itself is traced back from the minimum of the last row. Row-major
// rows x cols floats, cols >= 1.
void seamCumulativeEnergy(int rows, int cols, const float* energy, float* cum) {
  for (int j = 0; j < cols; ++j) cum[j] = energy[j];
  for (int i = 1; i < rows; ++i) {
    const float* up = cum + static_cast<long long>(i - 1) * cols;
    const float* e = energy + static_cast<long long>(i) * cols;
    float* out = cum + static_cast<long long>(i) * cols;
    for (int j = 0; j < cols; ++j) {
      float m = up[j];
      if (j > 0 && up[j - 1] < m) m = up[j - 1];
      if (j + 1 < cols && up[j + 1] < m) m = up[j + 1];
      out[j] = e[j] + m;
    }
  }
}

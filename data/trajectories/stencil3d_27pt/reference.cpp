#include <vector>

// 27-point stencil on an nx x ny x nz grid (x fastest, then y, then z). The 26
// neighbours are weighted by their distance class: c0 for the centre, c1 for
// the 6 face neighbours, c2 for the 12 edge neighbours and c3 for the 8 corner
// neighbours. Points on the boundary of the grid are copied unchanged.
void stencil27_weighted(const std::vector<float>& in, std::vector<float>& out, int nx, int ny, int nz,
                        float c0, float c1, float c2, float c3) {
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        long idx = ((long)z * ny + y) * nx + x;
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
          out[idx] = in[idx];
          continue;
        }
        float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              int cls = (dx != 0) + (dy != 0) + (dz != 0);
              sums[cls] += in[idx + ((long)dz * ny + dy) * nx + dx];
            }
        out[idx] = c0 * sums[0] + c1 * sums[1] + c2 * sums[2] + c3 * sums[3];
      }
    }
  }
}

#include <algorithm>
#include <cmath>
#include <vector>

// Fixed-radius neighbour counts with a cell list, the broad phase of
// short-range molecular dynamics and SPH: count[i] is the number of other
// particles j with squared distance (dx*dx + dy*dy) + dz*dz < rc^2 (float, no
// fused multiply-add). Positions are separate x, y, z arrays; no periodic
// images. The cell list spans the particles' bounding box with
// ncell = max(1, min(128, floor(extent / (1.0001 rc)))) cells per axis, so a
// cell is at least a hair wider than rc and every neighbour of a particle lies
// in its own or one of the 26 adjacent cells; particles are chained per cell
// with head/next links. rc > 0, n >= 1.
static int cell_of(float v, float lo, float extent, int ncell) {
  if (ncell == 1) return 0;
  int c = static_cast<int>((v - lo) / extent * static_cast<float>(ncell));
  return c < 0 ? 0 : (c >= ncell ? ncell - 1 : c);
}

static int cells_along(float extent, float rc) {
  float k = std::floor(extent / (1.0001f * rc));
  if (!(k >= 1.0f)) return 1;
  return k > 128.0f ? 128 : static_cast<int>(k);
}

void neighborCounts(int n, const float* x, const float* y, const float* z, float rc, int* count) {
  float lo[3] = {x[0], y[0], z[0]}, hi[3] = {x[0], y[0], z[0]};
  const float* p[3] = {x, y, z};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], p[d][i]);
      hi[d] = std::max(hi[d], p[d][i]);
    }
  int nc[3];
  float ext[3];
  for (int d = 0; d < 3; ++d) {
    ext[d] = hi[d] - lo[d];
    nc[d] = cells_along(ext[d], rc);
  }
  std::vector<int> head(static_cast<size_t>(nc[0]) * nc[1] * nc[2], -1), next(n), cx(n), cy(n), cz(n);
  for (int i = 0; i < n; ++i) {
    cx[i] = cell_of(x[i], lo[0], ext[0], nc[0]);
    cy[i] = cell_of(y[i], lo[1], ext[1], nc[1]);
    cz[i] = cell_of(z[i], lo[2], ext[2], nc[2]);
    size_t c = (static_cast<size_t>(cz[i]) * nc[1] + cy[i]) * nc[0] + cx[i];
    next[i] = head[c];
    head[c] = i;
  }
  float rc2 = rc * rc;
  for (int i = 0; i < n; ++i) {
    int c = 0;
    for (int a = std::max(cz[i] - 1, 0); a <= std::min(cz[i] + 1, nc[2] - 1); ++a)
      for (int b = std::max(cy[i] - 1, 0); b <= std::min(cy[i] + 1, nc[1] - 1); ++b)
        for (int e = std::max(cx[i] - 1, 0); e <= std::min(cx[i] + 1, nc[0] - 1); ++e)
          for (int j = head[(static_cast<size_t>(a) * nc[1] + b) * nc[0] + e]; j >= 0; j = next[j]) {
            if (j == i) continue;
            float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
            if (dx * dx + dy * dy + dz * dz < rc2) ++c;
          }
    count[i] = c;
  }
}

#include <cmath>

// One semi-Lagrangian advection step of a scalar field q on a w x h grid
// (row-major, unit spacing), as in stable-fluids solvers: for each cell
// (x = column, y = row) the departure point (x - dt * vx, y - dt * vy) is
// clamped into [0, w-1] x [0, h-1] and q is sampled there bilinearly,
//   q_out = (1-fy) * ((1-fx) * q00 + fx * q10) + fy * ((1-fx) * q01 + fx * q11),
// where q00 is the cell at (floor x, floor y), q10 one column right (clamped),
// q01 one row down (clamped). w, h >= 1.
void semiLagrangianAdvect(const float* q, const float* vx, const float* vy, float* q_out, int w, int h, float dt) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int c = y * w + x;
      float px = x - dt * vx[c];
      float py = y - dt * vy[c];
      px = std::fmin(std::fmax(px, 0.0f), static_cast<float>(w - 1));
      py = std::fmin(std::fmax(py, 0.0f), static_cast<float>(h - 1));
      int x0 = static_cast<int>(px);
      int y0 = static_cast<int>(py);
      int x1 = x0 + 1 < w ? x0 + 1 : w - 1;
      int y1 = y0 + 1 < h ? y0 + 1 : h - 1;
      float fx = px - x0;
      float fy = py - y0;
      float top = (1.0f - fx) * q[y0 * w + x0] + fx * q[y0 * w + x1];
      float bottom = (1.0f - fx) * q[y1 * w + x0] + fx * q[y1 * w + x1];
      q_out[c] = (1.0f - fy) * top + fy * bottom;
    }
  }
}

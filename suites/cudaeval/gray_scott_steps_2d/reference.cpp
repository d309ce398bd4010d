#include <cstddef>
#include <vector>

// Time steps of the Gray-Scott reaction-diffusion model (the pattern-forming
// system of "spots and stripes") on a periodic nx x ny grid (row-major, row
// = y, indices wrap around), explicit Euler in float. Each step first forms
// the 5-point Laplacians lu, lv of both fields, then updates every cell:
//   uvv = u v^2
//   u += dt * (Du lu - uvv + F (1 - u))
//   v += dt * (Dv lv + uvv - (F + k) v)
// nx, ny >= 1, steps >= 0.
void grayScottSteps(std::vector<float>& u, std::vector<float>& v, int nx, int ny, int steps, float Du, float Dv,
                    float F, float k, float dt) {
  const size_t n = static_cast<size_t>(nx) * ny;
  std::vector<float> lu(n), lv(n);
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < ny; ++y) {
      int yn = (y + ny - 1) % ny, ys = (y + 1) % ny;
      for (int x = 0; x < nx; ++x) {
        int xw = (x + nx - 1) % nx, xe = (x + 1) % nx;
        size_t c = static_cast<size_t>(y) * nx + x;
        lu[c] = u[y * nx + xw] + u[y * nx + xe] + u[yn * nx + x] + u[ys * nx + x] - 4.0f * u[c];
        lv[c] = v[y * nx + xw] + v[y * nx + xe] + v[yn * nx + x] + v[ys * nx + x] - 4.0f * v[c];
      }
    }
    for (size_t c = 0; c < n; ++c) {
      float uvv = u[c] * v[c] * v[c];
      float un = u[c] + dt * (Du * lu[c] - uvv + F * (1.0f - u[c]));
      float vn = v[c] + dt * (Dv * lv[c] + uvv - (F + k) * v[c]);
      u[c] = un;
      v[c] = vn;
    }
  }
}

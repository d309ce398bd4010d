// One first-order upwind step of u_t + v u_y = 0 on a row-major w x h grid
// (y indexes rows), with v per cell in grid cells per step (|v| <= 1). A cell
// takes the difference with the row the flow comes from: the row above for
// v > 0, the row below otherwise; beyond the first and last rows the cell
// itself stands in (zero-gradient boundary).
void upwind_advect_y(int w, int h, const float* u, const float* v, float* u_next) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float c = u[y * w + x];
      float above = y > 0 ? u[(y - 1) * w + x] : c;
      float below = y < h - 1 ? u[(y + 1) * w + x] : c;
      float s = v[y * w + x];
      u_next[y * w + x] = s > 0.0f ? c - s * (c - above) : c - s * (below - c);
    }
  }
}

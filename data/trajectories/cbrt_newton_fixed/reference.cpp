// Cube roots of positive inputs in [0.5, 8] by a fixed 8 Newton iterations on
// f(y) = y^3 - x, starting from the tangent line of x^(1/3) at x = 1.
void cubeRootNewton(int n, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    float xv = x[i];
    float r = 1.0f + (xv - 1.0f) / 3.0f;
    for (int k = 0; k < 8; ++k) {
      r = r - (r * r * r - xv) / (3.0f * r * r);
    }
    y[i] = r;
  }
}

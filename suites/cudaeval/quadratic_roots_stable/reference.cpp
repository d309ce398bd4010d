#include <cmath>

// Real roots of many quadratics a x^2 + b x + c = 0 (a != 0), computed with
// the numerically stable form that avoids cancellation between -b and the
// square root: q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q.
// nroots[i] is 0 (disc < 0; r1 = r2 = 0), 1 (disc == 0; the double root in
// both) or 2 (r1 < r2). All in float, no fused multiply-add.
void solveQuadratics(int n, const float* a, const float* b, const float* c, float* r1, float* r2,
                     int* nroots) {
  for (int i = 0; i < n; ++i) {
    float disc = b[i] * b[i] - 4.0f * a[i] * c[i];
    if (disc < 0.0f) {
      nroots[i] = 0;
      r1[i] = 0.0f;
      r2[i] = 0.0f;
    } else if (disc == 0.0f) {
      nroots[i] = 1;
      r1[i] = r2[i] = -b[i] / (2.0f * a[i]);
    } else {
      float s = std::sqrt(disc);
      float q = -0.5f * (b[i] + std::copysign(s, b[i]));
      float x1 = q / a[i];
      float x2 = c[i] / q;
      nroots[i] = 2;
      r1[i] = x1 < x2 ? x1 : x2;
      r2[i] = x1 < x2 ? x2 : x1;
    }
  }
}

#include <cmath>

// Builds the Givens rotation that maps the pair (a, b) to (r, 0) and applies it
// to two rows x and y of length n, as a QR or least-squares update does when it
// annihilates one entry:
//   r = hypot(a, b), c = a / r, s = b / r   (c = 1, s = 0 when a = b = 0)
//   x[i] <- c * x[i] + s * y[i]
//   y[i] <- c * y[i] - s * x[i]   (with the old x[i])
// Both rows are updated in place.
void givensRotatePair(int n, float a, float b, float* x, float* y) {
  float c = 1.0f;
  float s = 0.0f;
  if (a != 0.0f || b != 0.0f) {
    float r = std::hypot(a, b);
    c = a / r;
    s = b / r;
  }
  for (int i = 0; i < n; ++i) {
    float xi = x[i];
    float yi = y[i];
    x[i] = c * xi + s * yi;
    y[i] = c * yi - s * xi;
  }
}

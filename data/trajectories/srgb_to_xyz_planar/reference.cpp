#include <cmath>
#include <vector>

// Converts planar sRGB pixels (components in [0, 1]) to CIE XYZ (D65) in two
// passes: pass 1 undoes the sRGB transfer curve into a temporary planar buffer,
// pass 2 applies the 3x3 linear-RGB -> XYZ matrix.
void srgbToXyz(int n, const float* r, const float* g, const float* b, float* X, float* Y,
               float* Z) {
  if (n <= 0) return;
  std::vector<float> lin(3 * static_cast<size_t>(n));
  const float* src[3] = {r, g, b};
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < n; ++i) {
      float v = src[c][i];
      lin[c * static_cast<size_t>(n) + i] =
          v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
    }
  }
  const float* lr = lin.data();
  const float* lg = lr + n;
  const float* lb = lg + n;
  for (int i = 0; i < n; ++i) {
    X[i] = 0.4124564f * lr[i] + 0.3575761f * lg[i] + 0.1804375f * lb[i];
    Y[i] = 0.2126729f * lr[i] + 0.7151522f * lg[i] + 0.0721750f * lb[i];
    Z[i] = 0.0193339f * lr[i] + 0.1191920f * lg[i] + 0.9503041f * lb[i];
  }
}

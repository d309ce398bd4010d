#include <cmath>
#include <cstdint>

// Affine 8-bit quantisation: q = clamp(round_half_even(x / scale + zero_point), 0, 255).
void quantizeToBytes(int n, const float* x, float scale, float zero_point, uint8_t* q) {
  for (int i = 0; i < n; ++i) {
    float v = std::nearbyint(x[i] / scale + zero_point);
    if (v < 0.0f) v = 0.0f;
    if (v > 255.0f) v = 255.0f;
    q[i] = static_cast<uint8_t>(v);
  }
}

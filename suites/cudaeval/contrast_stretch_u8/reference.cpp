#include <cstdint>

// Linear contrast stretch of an 8-bit grey image into a new buffer (the
// "auto levels" step of photo tools once the black and white points lo < hi
// are known): values at or below lo become 0, values at or above hi become
// 255, and a value v in between becomes (v - lo) * 255 / (hi - lo) rounded
// to nearest, computed in integers as ((v - lo) * 255 + (hi - lo) / 2) /
// (hi - lo). n pixels; n may be 0.
void contrastStretchU8(const uint8_t* in, uint8_t* out, int n, int lo, int hi) {
  const int range = hi - lo;
  for (int i = 0; i < n; ++i) {
    int v = in[i];
    int s;
    if (v <= lo) {
      s = 0;
    } else if (v >= hi) {
      s = 255;
    } else {
      s = ((v - lo) * 255 + range / 2) / range;
    }
    out[i] = static_cast<uint8_t>(s);
  }
}

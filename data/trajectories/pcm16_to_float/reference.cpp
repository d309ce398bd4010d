#include <cstdint>

// Converts signed 16-bit PCM samples to float with a gain, clipping to
// [-1, 1]: out[i] = clamp(gain / 32768 * pcm[i], -1, 1).
void pcm16_to_float(int n, const int16_t* pcm, float gain, float* out) {
  const float scale = gain / 32768.0f;
  for (int i = 0; i < n; ++i) {
    float v = scale * pcm[i];
    out[i] = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
  }
}

#include <cstdint>

// Binarises a float image (n pixels): 255 where the value is strictly above the
// threshold, 0 elsewhere.
void binarize_threshold(int n, const float* in, float threshold, uint8_t* out) {
  for (int i = 0; i < n; ++i) out[i] = in[i] > threshold ? 255 : 0;
}

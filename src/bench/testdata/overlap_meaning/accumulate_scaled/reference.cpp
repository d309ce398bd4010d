#include <cstddef>

// Planted behavioural twin of problems/saxpy (test data only): the same
// function with its parameters renamed and reordered, written with a pointer
// walk instead of an indexed loop, so that no token 9-gram of saxpy's is
// left. `suite overlap --meaning` must flag it by its outputs.
void accumulateScaled(float gain, std::size_t count, const float* src, float* acc) {
  const float* end = src + count;
  while (src != end) {
    *acc = *acc + gain * *src;
    ++acc;
    ++src;
  }
}

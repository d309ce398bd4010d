#include <cmath>

// Total variation of each of `series` time series of `len` samples stored back
// to back: tv[s] = sum over t = 1 .. len - 1 of |x[s * len + t] - x[s * len + t - 1]|.
void series_total_variation(int series, int len, const float* x, float* tv) {
  for (int s = 0; s < series; ++s) {
    const float* samples = x + (long long)s * len;
    float acc = 0.0f;
    for (int t = 1; t < len; ++t) acc += std::fabs(samples[t] - samples[t - 1]);
    tv[s] = acc;
  }
}

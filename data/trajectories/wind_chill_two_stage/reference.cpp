#include <cmath>
#include <vector>

// Wind-chill index (North American formula, temperature in deg C, wind speed in
// km/h), computed in two stages: first the wind factor v^0.16 for every sample
// into a temporary, then the index 13.12 + 0.6215 T - 11.37 v^0.16 + 0.3965 T v^0.16.
void windChillIndex(int n, const float* tempC, const float* windKmh, float* chill) {
  std::vector<float> vp(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) vp[i] = std::pow(windKmh[i], 0.16f);
  for (int i = 0; i < n; ++i)
    chill[i] = 13.12f + 0.6215f * tempC[i] - 11.37f * vp[i] + 0.3965f * tempC[i] * vp[i];
}

#include <cstdint>

// Autocorrelation of 16-bit PCM audio at lags 0 .. K-1, exactly in 64-bit
// integers, as LPC analysis in speech codecs and pitch detectors compute it:
//   r[k] = sum_{i=0}^{n-1-k} x[i] * x[i+k]   (0 when k >= n).
// n >= 0, K >= 1.
void autocorrPcm16(const int16_t* x, int n, int64_t* r, int K) {
  for (int k = 0; k < K; ++k) {
    int64_t acc = 0;
    for (int i = 0; i + k < n; ++i) acc += static_cast<int32_t>(x[i]) * x[i + k];
    r[k] = acc;
  }
}

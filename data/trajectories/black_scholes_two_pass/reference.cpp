#include <cmath>
#include <vector>

// European call and put prices under Black-Scholes, written as two passes:
// pass 1 computes d1 and d2 for every option, pass 2 turns them into prices
// with the normal CDF N(x) = 0.5 * erfc(-x / sqrt(2)).
void blackScholesPrices(int n, const float* spot, const float* strike, const float* years,
                        float rate, float vol, float* call, float* put) {
  std::vector<float> d1(n > 0 ? n : 0), d2(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) {
    float vs = vol * std::sqrt(years[i]);
    d1[i] = (std::log(spot[i] / strike[i]) + (rate + 0.5f * vol * vol) * years[i]) / vs;
    d2[i] = d1[i] - vs;
  }
  const float inv_sqrt2 = 0.70710678f;
  for (int i = 0; i < n; ++i) {
    float disc = strike[i] * std::exp(-rate * years[i]);
    float nd1 = 0.5f * std::erfc(-d1[i] * inv_sqrt2);
    float nd2 = 0.5f * std::erfc(-d2[i] * inv_sqrt2);
    call[i] = spot[i] * nd1 - disc * nd2;
    put[i] = disc * (1.0f - nd2) - spot[i] * (1.0f - nd1);
  }
}

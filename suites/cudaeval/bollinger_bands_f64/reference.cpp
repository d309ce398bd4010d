#include <cmath>

// Bollinger bands of a price series with a trailing window of w >= 1 samples
// and a width of k standard deviations. For every t the window is
// price[max(0, t - w + 1) .. t] (shorter at the start of the series), and
//   mid[t] = window mean, sd = population standard deviation of the window
//   (two-pass: mean first, then the mean squared deviation),
//   upper[t] = mid[t] + k * sd,  lower[t] = mid[t] - k * sd.
void bollingerBands(int n, const double* price, int w, double k, double* mid, double* upper,
                    double* lower) {
  for (int t = 0; t < n; ++t) {
    const int lo = t - w + 1 > 0 ? t - w + 1 : 0;
    const int cnt = t - lo + 1;
    double sum = 0.0;
    for (int s = lo; s <= t; ++s) sum += price[s];
    const double mean = sum / cnt;
    double sq = 0.0;
    for (int s = lo; s <= t; ++s) {
      const double d = price[s] - mean;
      sq += d * d;
    }
    const double sd = std::sqrt(sq / cnt);
    mid[t] = mean;
    upper[t] = mean + k * sd;
    lower[t] = mean - k * sd;
  }
}

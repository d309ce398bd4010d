#include <cmath>

// Signed deviance residuals of a Poisson regression (GLM diagnostics): for an
// observed count y[i] >= 0 and a fitted mean mu[i] > 0,
//   d = 2 * (y * log(y / mu) - (y - mu))     (y * log(y / mu) taken as 0 for y = 0)
//   res[i] = sign(y - mu) * sqrt(d)
// in double; d is clamped at 0 against rounding.
void poissonDevianceResiduals(int n, const int* y, const double* mu, double* res) {
  for (int i = 0; i < n; ++i) {
    const double yi = y[i];
    const double term = yi > 0.0 ? yi * std::log(yi / mu[i]) : 0.0;
    double d = 2.0 * (term - (yi - mu[i]));
    if (d < 0.0) d = 0.0;
    const double s = std::sqrt(d);
    res[i] = yi > mu[i] ? s : (yi < mu[i] ? -s : 0.0);
  }
}

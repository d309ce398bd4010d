#include <cmath>
#include <cstddef>
#include <vector>

// Monte Carlo price of an arithmetic-average Asian call under geometric
// Brownian motion, from pre-generated standard normal draws: z holds `steps`
// draws per path, path-major (z[p * steps + t]). With dt = T / steps, path p
// evolves S_t = S_{t-1} * exp((r - sigma^2 / 2) dt + sigma sqrt(dt) z[p][t])
// from S_0 = s0, its payoff is max(A - strike, 0) with A the mean of
// S_1 .. S_steps, and
//   price  = exp(-r T) * mean of the payoffs
//   stderr = exp(-r T) * sqrt(sample variance of the payoffs / paths)
// (two-pass variance with divisor paths - 1), all in double; paths >= 2.
void mcAsianCallPrice(int paths, int steps, const float* z, double s0, double strike, double r,
                      double sigma, double T, double& price, double& stderr_out) {
  const double dt = T / steps;
  const double drift = (r - 0.5 * sigma * sigma) * dt;
  const double vol = sigma * std::sqrt(dt);
  std::vector<double> payoff(static_cast<std::size_t>(paths));
  double sum = 0.0;
  for (int p = 0; p < paths; ++p) {
    double s = s0, acc = 0.0;
    for (int t = 0; t < steps; ++t) {
      s *= std::exp(drift + vol * z[static_cast<long long>(p) * steps + t]);
      acc += s;
    }
    const double a = acc / steps;
    payoff[p] = a > strike ? a - strike : 0.0;
    sum += payoff[p];
  }
  const double mean = sum / paths;
  double ss = 0.0;
  for (int p = 0; p < paths; ++p) ss += (payoff[p] - mean) * (payoff[p] - mean);
  const double disc = std::exp(-r * T);
  price = disc * mean;
  stderr_out = disc * std::sqrt(ss / (paths - 1) / paths);
}

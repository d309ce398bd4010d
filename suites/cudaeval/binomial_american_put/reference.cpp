#include <cmath>
#include <cstddef>
#include <vector>

// American put prices on a Cox-Ross-Rubinstein binomial tree with `steps`
// time steps (1 <= steps <= 8191), one option per index: spot S, strike K,
// years to expiry T, risk-free rate r and volatility sigma.
//   dt = T / steps, u = exp(sigma sqrt(dt)), d = 1 / u,
//   p = (exp(r dt) - d) / (u - d), disc = exp(-r dt)
// Node i of level t (0 <= i <= t) has the asset price S * u^(2i - t).
// Leaves (t = steps): V[i] = max(K - S u^(2i - steps), 0); then for
// t = steps - 1 down to 0:
//   V[i] = max(disc * (p V[i+1] + (1 - p) V[i]), K - S u^(2i - t)),
// and price = V[0]. The asset prices are evaluated with pow at every node.
void binomialAmericanPut(int n, const double* S, const double* K, const double* T, const double* r,
                         const double* sigma, int steps, double* price) {
  std::vector<double> v(static_cast<std::size_t>(steps) + 1);
  for (int o = 0; o < n; ++o) {
    const double dt = T[o] / steps;
    const double u = std::exp(sigma[o] * std::sqrt(dt));
    const double d = 1.0 / u;
    const double p = (std::exp(r[o] * dt) - d) / (u - d);
    const double disc = std::exp(-r[o] * dt);
    for (int i = 0; i <= steps; ++i) {
      const double ex = K[o] - S[o] * std::pow(u, 2 * i - steps);
      v[i] = ex > 0.0 ? ex : 0.0;
    }
    for (int t = steps - 1; t >= 0; --t) {
      for (int i = 0; i <= t; ++i) {
        const double cont = disc * (p * v[i + 1] + (1.0 - p) * v[i]);
        const double ex = K[o] - S[o] * std::pow(u, 2 * i - t);
        v[i] = cont > ex ? cont : ex;
      }
    }
    price[o] = v[0];
  }
}

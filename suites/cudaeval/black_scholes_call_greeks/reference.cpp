#include <cmath>

// Black-Scholes sensitivities ("greeks") of European call options, one option
// per index: spot S, strike K, years to expiry T > 0, risk-free rate r and
// volatility sigma > 0. Written the textbook way, one helper per quantity:
//   d1 = (ln(S/K) + (r + sigma^2/2) T) / (sigma sqrt(T)),  d2 = d1 - sigma sqrt(T)
//   delta = N(d1)                     gamma = phi(d1) / (S sigma sqrt(T))
//   vega  = S phi(d1) sqrt(T)         rho   = K T e^(-rT) N(d2)
//   theta = -S phi(d1) sigma / (2 sqrt(T)) - r K e^(-rT) N(d2)   (per year)
// with phi the standard normal density and N(x) = erfc(-x / sqrt(2)) / 2.
namespace {

double NormPdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }
double NormCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double D1(double s, double k, double t, double r, double v) {
  return (std::log(s / k) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
}
double D2(double s, double k, double t, double r, double v) {
  return D1(s, k, t, r, v) - v * std::sqrt(t);
}

}  // namespace

void blackScholesCallGreeks(int n, const double* S, const double* K, const double* T,
                            const double* r, const double* sigma, double* delta, double* gamma,
                            double* vega, double* theta, double* rho) {
  for (int i = 0; i < n; ++i) {
    const double s = S[i], k = K[i], t = T[i], rr = r[i], v = sigma[i];
    delta[i] = NormCdf(D1(s, k, t, rr, v));
    gamma[i] = NormPdf(D1(s, k, t, rr, v)) / (s * v * std::sqrt(t));
    vega[i] = s * NormPdf(D1(s, k, t, rr, v)) * std::sqrt(t);
    rho[i] = k * t * std::exp(-rr * t) * NormCdf(D2(s, k, t, rr, v));
    theta[i] = -s * NormPdf(D1(s, k, t, rr, v)) * v / (2.0 * std::sqrt(t)) -
               rr * k * std::exp(-rr * t) * NormCdf(D2(s, k, t, rr, v));
  }
}

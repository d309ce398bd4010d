#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one thread prices the greeks of one option.
// Step 2 (strength_reduction): the reference recomputes d1 (a log, a square
// root, a division), the density phi(d1) and the discount factor for every
// greek. Here sqrt(T), d1, d2, phi(d1), N(d1), N(d2) and exp(-rT) are
// computed once per option and shared by the five outputs, and the divisions
// by sigma*sqrt(T) and by 2*sqrt(T) become multiplications by reciprocals
// computed once.
__global__ void bs_greeks_kernel(int n, const double* __restrict__ S, const double* __restrict__ K,
                                 const double* __restrict__ T, const double* __restrict__ r,
                                 const double* __restrict__ sigma, double* __restrict__ delta,
                                 double* __restrict__ gamma, double* __restrict__ vega,
                                 double* __restrict__ theta, double* __restrict__ rho) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double kInvSqrt2Pi = 0.39894228040143267794;
  const double kInvSqrt2 = 0.70710678118654752440;
  double s = S[i], k = K[i], t = T[i], rr = r[i], v = sigma[i];
  double sqrt_t = sqrt(t);
  double vol_t = v * sqrt_t;
  double inv_vol_t = 1.0 / vol_t;
  double d1 = (log(s / k) + (rr + 0.5 * v * v) * t) * inv_vol_t;
  double d2 = d1 - vol_t;
  double pdf = exp(-0.5 * d1 * d1) * kInvSqrt2Pi;
  double cdf_d2 = 0.5 * erfc(-d2 * kInvSqrt2);
  double k_disc = k * exp(-rr * t);
  double s_pdf = s * pdf;
  delta[i] = 0.5 * erfc(-d1 * kInvSqrt2);
  gamma[i] = pdf * inv_vol_t / s;
  vega[i] = s_pdf * sqrt_t;
  rho[i] = k_disc * t * cdf_d2;
  theta[i] = -s_pdf * v * (0.5 / sqrt_t) - rr * k_disc * cdf_d2;
}

void blackScholesCallGreeks(int n, const double* S, const double* K, const double* T,
                            const double* r, const double* sigma, double* delta, double* gamma,
                            double* vega, double* theta, double* rho) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(double);
  const double* inputs[5] = {S, K, T, r, sigma};
  double* outputs[5] = {delta, gamma, vega, theta, rho};
  double* d_in[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  double* d_out[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  for (int a = 0; a < 5; ++a) {
    cudaMalloc(&d_in[a], bytes);
    cudaMalloc(&d_out[a], bytes);
    cudaMemcpy(d_in[a], inputs[a], bytes, cudaMemcpyHostToDevice);
  }
  const int block = 256;
  bs_greeks_kernel<<<(n + block - 1) / block, block>>>(n, d_in[0], d_in[1], d_in[2], d_in[3],
                                                       d_in[4], d_out[0], d_out[1], d_out[2],
                                                       d_out[3], d_out[4]);
  for (int a = 0; a < 5; ++a) {
    cudaMemcpy(outputs[a], d_out[a], bytes, cudaMemcpyDeviceToHost);
    cudaFree(d_in[a]);
    cudaFree(d_out[a]);
  }
}

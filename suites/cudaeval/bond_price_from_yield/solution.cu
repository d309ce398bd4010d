#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one thread prices one bond.
// Step 2 (algorithmic_restructuring): the coupon sum is a geometric series,
//   sum_{k=1..N} cpn v^k = cpn * (1 - v^N) / y   with v = 1 / (1 + y),
// so the price is cpn * (1 - v^N) / y + face * v^N: constant work per bond
// (one log1p and one exp, via v^N = exp(-N log1p(y)), with -expm1 for 1 - v^N
// to keep precision when y*N is small) instead of up to 360 pow calls, and no
// divergence between bonds with different numbers of periods in a warp. A
// zero yield is the limit cpn * N + face.
__global__ void bond_price_kernel(int n, const double* __restrict__ face,
                                  const double* __restrict__ coupon, const int* __restrict__ freq,
                                  const int* __restrict__ periods, const double* __restrict__ yield,
                                  double* __restrict__ price) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double f = (double)freq[i];
  double y = yield[i] / f;
  double cpn = face[i] * coupon[i] / f;
  double N = (double)periods[i];
  double pv;
  if (y == 0.0) {
    pv = cpn * N + face[i];
  } else {
    double log_v_n = -N * log1p(y);         // log(v^N)
    double vn = exp(log_v_n);               // v^N
    double one_minus_vn = -expm1(log_v_n);  // 1 - v^N, accurate for small y*N
    pv = cpn * one_minus_vn / y + face[i] * vn;
  }
  price[i] = pv;
}

void bondPriceFromYield(int n, const double* face, const double* coupon, const int* freq,
                        const int* periods, const double* yield, double* price) {
  if (n <= 0) return;
  size_t db = (size_t)n * sizeof(double);
  size_t ib = (size_t)n * sizeof(int);
  double *d_face = nullptr, *d_cpn = nullptr, *d_yield = nullptr, *d_price = nullptr;
  int *d_freq = nullptr, *d_periods = nullptr;
  cudaMalloc(&d_face, db);
  cudaMalloc(&d_cpn, db);
  cudaMalloc(&d_yield, db);
  cudaMalloc(&d_price, db);
  cudaMalloc(&d_freq, ib);
  cudaMalloc(&d_periods, ib);
  cudaMemcpy(d_face, face, db, cudaMemcpyHostToDevice);
  cudaMemcpy(d_cpn, coupon, db, cudaMemcpyHostToDevice);
  cudaMemcpy(d_yield, yield, db, cudaMemcpyHostToDevice);
  cudaMemcpy(d_freq, freq, ib, cudaMemcpyHostToDevice);
  cudaMemcpy(d_periods, periods, ib, cudaMemcpyHostToDevice);
  const int block = 256;
  bond_price_kernel<<<(n + block - 1) / block, block>>>(n, d_face, d_cpn, d_freq, d_periods,
                                                        d_yield, d_price);
  cudaMemcpy(price, d_price, db, cudaMemcpyDeviceToHost);
  cudaFree(d_face);
  cudaFree(d_cpn);
  cudaFree(d_yield);
  cudaFree(d_price);
  cudaFree(d_freq);
  cudaFree(d_periods);
}

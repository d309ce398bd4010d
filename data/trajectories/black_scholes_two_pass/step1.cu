#include <cuda_runtime.h>
#include <cmath>

// Pass 1: one thread per option computes d1 and d2 into device temporaries.
__global__ void bs_d_kernel(int n, const float* spot, const float* strike, const float* years,
                            float rate, float vol, float* d1, float* d2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float vs = vol * sqrtf(years[i]);
    float a = (logf(spot[i] / strike[i]) + (rate + 0.5f * vol * vol) * years[i]) / vs;
    d1[i] = a;
    d2[i] = a - vs;
  }
}

// Pass 2: one thread per option turns d1/d2 into call and put prices.
__global__ void bs_price_kernel(int n, const float* spot, const float* strike, const float* years,
                                float rate, const float* d1, const float* d2,
                                float* call, float* put) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float inv_sqrt2 = 0.70710678f;
    float disc = strike[i] * expf(-rate * years[i]);
    float nd1 = 0.5f * erfcf(-d1[i] * inv_sqrt2);
    float nd2 = 0.5f * erfcf(-d2[i] * inv_sqrt2);
    call[i] = spot[i] * nd1 - disc * nd2;
    put[i] = disc * (1.0f - nd2) - spot[i] * (1.0f - nd1);
  }
}

void blackScholesPrices(int n, const float* spot, const float* strike, const float* years,
                        float rate, float vol, float* call, float* put) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dS = nullptr, *dK = nullptr, *dT = nullptr, *dD1 = nullptr, *dD2 = nullptr;
  float *dC = nullptr, *dP = nullptr;
  cudaMalloc(&dS, bytes);
  cudaMalloc(&dK, bytes);
  cudaMalloc(&dT, bytes);
  cudaMalloc(&dD1, bytes);
  cudaMalloc(&dD2, bytes);
  cudaMalloc(&dC, bytes);
  cudaMalloc(&dP, bytes);
  cudaMemcpy(dS, spot, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dK, strike, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dT, years, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  bs_d_kernel<<<grid, block>>>(n, dS, dK, dT, rate, vol, dD1, dD2);
  bs_price_kernel<<<grid, block>>>(n, dS, dK, dT, rate, dD1, dD2, dC, dP);
  cudaMemcpy(call, dC, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(put, dP, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dS);
  cudaFree(dK);
  cudaFree(dT);
  cudaFree(dD1);
  cudaFree(dD2);
  cudaFree(dC);
  cudaFree(dP);
}

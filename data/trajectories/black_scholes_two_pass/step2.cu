#include <cuda_runtime.h>
#include <cmath>

// Both passes fused: d1 and d2 stay in registers, so the two temporary arrays,
// their DRAM round trip and the second launch disappear.
__global__ void bs_fused_kernel(int n, const float* spot, const float* strike, const float* years,
                                float rate, float vol, float* call, float* put) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float inv_sqrt2 = 0.70710678f;
    float s = spot[i], k = strike[i], t = years[i];
    float vs = vol * sqrtf(t);
    float d1 = (logf(s / k) + (rate + 0.5f * vol * vol) * t) / vs;
    float d2 = d1 - vs;
    float disc = k * expf(-rate * t);
    float nd1 = 0.5f * erfcf(-d1 * inv_sqrt2);
    float nd2 = 0.5f * erfcf(-d2 * inv_sqrt2);
    call[i] = s * nd1 - disc * nd2;
    put[i] = disc * (1.0f - nd2) - s * (1.0f - nd1);
  }
}

void blackScholesPrices(int n, const float* spot, const float* strike, const float* years,
                        float rate, float vol, float* call, float* put) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dS = nullptr, *dK = nullptr, *dT = nullptr, *dC = nullptr, *dP = nullptr;
  cudaMalloc(&dS, bytes);
  cudaMalloc(&dK, bytes);
  cudaMalloc(&dT, bytes);
  cudaMalloc(&dC, bytes);
  cudaMalloc(&dP, bytes);
  cudaMemcpy(dS, spot, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dK, strike, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dT, years, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  bs_fused_kernel<<<grid, block>>>(n, dS, dK, dT, rate, vol, dC, dP);
  cudaMemcpy(call, dC, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(put, dP, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dS);
  cudaFree(dK);
  cudaFree(dT);
  cudaFree(dC);
  cudaFree(dP);
}

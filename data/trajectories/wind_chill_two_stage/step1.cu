#include <cuda_runtime.h>
#include <cmath>
#include <vector>

// Stage 1: wind factor v^0.16, one thread per sample.
__global__ void wind_factor_kernel(int n, const float* windKmh, float* vp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) vp[i] = powf(windKmh[i], 0.16f);
}

// Stage 2: the wind-chill formula, one thread per sample.
__global__ void chill_kernel(int n, const float* tempC, const float* vp, float* chill) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = tempC[i], v = vp[i];
    chill[i] = 13.12f + 0.6215f * t - 11.37f * v + 0.3965f * t * v;
  }
}

void windChillIndex(int n, const float* tempC, const float* windKmh, float* chill) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> vp(n);  // host-side temporary, as in the serial code
  float *dt = nullptr, *dw = nullptr, *dvp = nullptr, *dc = nullptr;
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dw, bytes);
  cudaMalloc(&dvp, bytes);
  cudaMalloc(&dc, bytes);
  int block = 256;
  int grid = (n + block - 1) / block;
  // Stage 1 on the device, result back to the host temporary.
  cudaMemcpy(dw, windKmh, bytes, cudaMemcpyHostToDevice);
  wind_factor_kernel<<<grid, block>>>(n, dw, dvp);
  cudaMemcpy(vp.data(), dvp, bytes, cudaMemcpyDeviceToHost);
  // Stage 2 on the device, reading the temporary from the host again.
  cudaMemcpy(dt, tempC, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dvp, vp.data(), bytes, cudaMemcpyHostToDevice);
  chill_kernel<<<grid, block>>>(n, dt, dvp, dc);
  cudaMemcpy(chill, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dt);
  cudaFree(dw);
  cudaFree(dvp);
  cudaFree(dc);
}

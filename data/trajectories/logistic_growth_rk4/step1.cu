#include <cuda_runtime.h>

// One thread per population, the serial RK4 loop unchanged.
__global__ void logistic_kernel(int n, const float* rate, const float* capacity, float dt,
                                float* pop) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float y = pop[i], r = rate[i], K = capacity[i];
    for (int s = 0; s < 8; ++s) {
      float k1 = r * y * (1.0f - y / K);
      float y2 = y + 0.5f * dt * k1;
      float k2 = r * y2 * (1.0f - y2 / K);
      float y3 = y + 0.5f * dt * k2;
      float k3 = r * y3 * (1.0f - y3 / K);
      float y4 = y + dt * k3;
      float k4 = r * y4 * (1.0f - y4 / K);
      y = y + dt / 6.0f * (k1 + 2.0f * k2 + 2.0f * k3 + k4);
    }
    pop[i] = y;
  }
}

void logisticGrowthRK4(int n, const float* rate, const float* capacity, float dt, float* pop) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dr = nullptr, *dk = nullptr, *dp = nullptr;
  cudaMalloc(&dr, bytes);
  cudaMalloc(&dk, bytes);
  cudaMalloc(&dp, bytes);
  cudaMemcpy(dr, rate, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, capacity, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dp, pop, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  logistic_kernel<<<grid, block>>>(n, dr, dk, dt, dp);
  cudaMemcpy(pop, dp, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dr);
  cudaFree(dk);
  cudaFree(dp);
}

#include <cuda_runtime.h>
#include <cmath>

// One thread per sample; the half-life is gathered from the 16-entry table.
__global__ void decay_kernel(int n, const int* isotope, const float* amount,
                             const float* elapsed, const float* halfLife, float* remaining,
                             float* activity) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float ln2 = 0.69314718f;
    float lambda = ln2 / halfLife[isotope[i]];
    float rem = amount[i] * expf(-lambda * elapsed[i]);
    remaining[i] = rem;
    activity[i] = lambda * rem;
  }
}

void isotopeDecay(int n, const int* isotope, const float* amount, const float* elapsed,
                  const float* halfLife, float* remaining, float* activity) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  size_t ibytes = static_cast<size_t>(n) * sizeof(int);
  int* diso = nullptr;
  float *damt = nullptr, *dt = nullptr, *dhl = nullptr, *drem = nullptr, *dact = nullptr;
  cudaMalloc(&diso, ibytes);
  cudaMalloc(&damt, bytes);
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dhl, 16 * sizeof(float));
  cudaMalloc(&drem, bytes);
  cudaMalloc(&dact, bytes);
  cudaMemcpy(diso, isotope, ibytes, cudaMemcpyHostToDevice);
  cudaMemcpy(damt, amount, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, elapsed, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dhl, halfLife, 16 * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  decay_kernel<<<grid, block>>>(n, diso, damt, dt, dhl, drem, dact);
  cudaMemcpy(remaining, drem, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(activity, dact, bytes, cudaMemcpyDeviceToHost);
  cudaFree(diso);
  cudaFree(damt);
  cudaFree(dt);
  cudaFree(dhl);
  cudaFree(drem);
  cudaFree(dact);
}

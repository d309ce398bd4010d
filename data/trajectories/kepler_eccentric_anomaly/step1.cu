#include <cuda_runtime.h>

// One thread per orbit, running the serial Newton iteration unchanged.
__global__ void kepler_kernel(int n, const float* meanAnomaly, const float* ecc,
                              float* eccAnomaly) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float M = meanAnomaly[i], e = ecc[i];
    float E = M + e * sinf(M);
    for (int k = 0; k < 6; ++k) {
      E = E - (E - e * sinf(E) - M) / (1.0f - e * cosf(E));
    }
    eccAnomaly[i] = E;
  }
}

void keplerSolve(int n, const float* meanAnomaly, const float* ecc, float* eccAnomaly) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dM = nullptr, *de = nullptr, *dE = nullptr;
  cudaMalloc(&dM, bytes);
  cudaMalloc(&de, bytes);
  cudaMalloc(&dE, bytes);
  cudaMemcpy(dM, meanAnomaly, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(de, ecc, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  kepler_kernel<<<grid, block>>>(n, dM, de, dE);
  cudaMemcpy(eccAnomaly, dE, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dM);
  cudaFree(de);
  cudaFree(dE);
}

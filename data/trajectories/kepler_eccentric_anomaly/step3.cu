#include <cuda_runtime.h>

#define NEWTON_ITERS 6

// The fixed 6-iteration Newton loop is fully unrolled: no counter or branch,
// and the next iteration's sine and cosine can be scheduled as soon as E is
// ready.
__global__ void __launch_bounds__(256) kepler_kernel(int n, const float* meanAnomaly,
                                                     const float* ecc, float* eccAnomaly) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float M = meanAnomaly[i], e = ecc[i];
    float E = M + e * sinf(M);
#pragma unroll
    for (int k = 0; k < NEWTON_ITERS; ++k) {
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
  // The accurate sinf/cosf carry a large-argument reduction path that raises
  // the kernel's register count, so a fixed 256-thread block may not be the
  // occupancy optimum. Ask the occupancy calculator for the block size, then
  // halve it (down to 64) while the grid would give fewer than two blocks per
  // SM: this compute-bound kernel needs every SM busy even for mid-sized n.
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kepler_kernel, 0, 256) !=
          cudaSuccess ||
      block <= 0)
    block = 256;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
    sms = 108;
  while (block > 64 && (n + block - 1) / block < 2 * sms) block >>= 1;
  int grid = (n + block - 1) / block;
  kepler_kernel<<<grid, block>>>(n, dM, de, dE);
  cudaMemcpy(eccAnomaly, dE, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dM);
  cudaFree(de);
  cudaFree(dE);
}

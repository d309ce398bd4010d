#include <cuda_runtime.h>

#define NEWTON_ITERS 6

__device__ __forceinline__ float kepler_one(float M, float e) {
  float E = M + e * sinf(M);
#pragma unroll
  for (int k = 0; k < NEWTON_ITERS; ++k) {
    E = E - (E - e * sinf(E) - M) / (1.0f - e * cosf(E));
  }
  return E;
}

// Four orbits per thread: float4 loads of M and e and a float4 store of E,
// four independent unrolled Newton chains per thread; threads i < n % 4 also
// solve one trailing orbit.
__global__ void __launch_bounds__(256) kepler_kernel_vec4(int n,
                                                          const float* __restrict__ meanAnomaly,
                                                          const float* __restrict__ ecc,
                                                          float* __restrict__ eccAnomaly) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 M = reinterpret_cast<const float4*>(meanAnomaly)[i];
    float4 e = reinterpret_cast<const float4*>(ecc)[i];
    float4 E;
    E.x = kepler_one(M.x, e.x);
    E.y = kepler_one(M.y, e.y);
    E.z = kepler_one(M.z, e.z);
    E.w = kepler_one(M.w, e.w);
    reinterpret_cast<float4*>(eccAnomaly)[i] = E;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    eccAnomaly[j] = kepler_one(meanAnomaly[j], ecc[j]);
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
  int n4 = n >> 2;
  int work = n4 > (n & 3) ? n4 : (n & 3);
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kepler_kernel_vec4, 0, 256) !=
          cudaSuccess ||
      block <= 0)
    block = 256;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
    sms = 108;
  while (block > 64 && (work + block - 1) / block < 2 * sms) block >>= 1;
  int grid = (work + block - 1) / block;
  kepler_kernel_vec4<<<grid, block>>>(n, dM, de, dE);
  cudaMemcpy(eccAnomaly, dE, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dM);
  cudaFree(de);
  cudaFree(dE);
}

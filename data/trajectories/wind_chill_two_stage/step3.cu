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

// Launch shape per kernel from the occupancy calculator (see previous step).
static int tuned_block(const void* kernel) {
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, 512) != cudaSuccess ||
      block <= 0)
    block = 256;
  return block;
}

// The wind factors stay resident on the device between the stages: the
// device-to-host copy of the temporary, its host-to-device copy back and the
// host vector are gone, leaving only the two input uploads and the result
// download. The stream orders the two kernels, so no host sync is needed.
void windChillIndex(int n, const float* tempC, const float* windKmh, float* chill) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dt = nullptr, *dw = nullptr, *dvp = nullptr, *dc = nullptr;
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dw, bytes);
  cudaMalloc(&dvp, bytes);
  cudaMalloc(&dc, bytes);
  int block1 = tuned_block(reinterpret_cast<const void*>(wind_factor_kernel));
  int block2 = tuned_block(reinterpret_cast<const void*>(chill_kernel));
  int grid1 = (n + block1 - 1) / block1;
  int grid2 = (n + block2 - 1) / block2;
  cudaMemcpy(dw, windKmh, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, tempC, bytes, cudaMemcpyHostToDevice);
  wind_factor_kernel<<<grid1, block1>>>(n, dw, dvp);
  chill_kernel<<<grid2, block2>>>(n, dt, dvp, dc);
  cudaMemcpy(chill, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dt);
  cudaFree(dw);
  cudaFree(dvp);
  cudaFree(dc);
}

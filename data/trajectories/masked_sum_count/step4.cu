#include <cuda_runtime.h>
#include <cstdint>

#define BLOCK 256
#define NWARPS (BLOCK / 32)

__device__ __forceinline__ void warp_reduce(double& s, int& c) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) {
    s += __shfl_down_sync(0xffffffffu, s, d);
    c += __shfl_down_sync(0xffffffffu, c, d);
  }
}

// Grid-stride accumulation in registers as before; the block combine now
// uses warp shuffles instead of shared-memory atomics.
__global__ void masked_kernel(int n, const float* __restrict__ x, const uint8_t* __restrict__ mask,
                              double* sum, int* count) {
  double s = 0.0;
  int c = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) {
    if (mask[i]) {
      s += (double)x[i];
      ++c;
    }
  }
  // Warp partials via shuffles, then warp 0 combines the block's NWARPS
  // partials the same way; one global atomic per result per block.
  __shared__ double wsum[NWARPS];
  __shared__ int wcount[NWARPS];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  warp_reduce(s, c);
  if (lane == 0) {
    wsum[warp] = s;
    wcount[warp] = c;
  }
  __syncthreads();
  if (warp == 0) {
    s = lane < NWARPS ? wsum[lane] : 0.0;
    c = lane < NWARPS ? wcount[lane] : 0;
    warp_reduce(s, c);
    if (lane == 0 && c > 0) {
      atomicAdd(sum, s);
      atomicAdd(count, c);
    }
  }
}

void masked_sum_count(int n, const float* x, const uint8_t* mask, double& sum, int& count) {
  sum = 0.0;
  count = 0;
  if (n <= 0) return;
  float* dx = nullptr;
  uint8_t* dm = nullptr;
  double* dsum = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dm, (size_t)n);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mask, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dcount, 0, sizeof(int));
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms < 1) sms = 1;
  int grid = sms * 8;  // enough resident blocks to fill the GPU
  int needed = (n + BLOCK - 1) / BLOCK;
  if (grid > needed) grid = needed;
  masked_kernel<<<grid, BLOCK>>>(n, dx, dm, dsum, dcount);
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dm);
  cudaFree(dsum);
  cudaFree(dcount);
}

#include <cuda_runtime.h>

#define THREADS 256

// One block of 256 threads per series: thread i takes the differences ending
// at t = 1 + i, 257 + i, ... (each block-wide step reads one contiguous run of
// the series). Partial sums are folded without shared-memory round trips:
// five __shfl_down_sync steps within each warp, the eight warp totals through
// shared memory, and three more shuffle steps in the first warp.
__global__ void tv_block(int len, const float* x, float* tv) {
  __shared__ float warp_sums[THREADS / 32];
  const float* samples = x + (long long)blockIdx.x * len;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float acc = 0.0f;
  for (int t = 1 + threadIdx.x; t < len; t += THREADS) acc += fabsf(samples[t] - samples[t - 1]);
  for (int delta = 16; delta > 0; delta >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, delta);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = lane < THREADS / 32 ? warp_sums[lane] : 0.0f;
    for (int delta = 4; delta > 0; delta >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, delta);
    if (lane == 0) tv[blockIdx.x] = acc;
  }
}

void series_total_variation(int series, int len, const float* x, float* tv) {
  if (series <= 0) return;
  size_t total = (size_t)series * (size_t)(len > 0 ? len : 0);
  float *d_x = nullptr, *d_tv = nullptr;
  cudaMalloc(&d_x, (total > 0 ? total : 1) * sizeof(float));
  cudaMalloc(&d_tv, (size_t)series * sizeof(float));
  if (total > 0) cudaMemcpy(d_x, x, total * sizeof(float), cudaMemcpyHostToDevice);
  tv_block<<<series, THREADS>>>(len, d_x, d_tv);
  cudaMemcpy(tv, d_tv, (size_t)series * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_tv);
}

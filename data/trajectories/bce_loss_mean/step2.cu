#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

#define THREADS 256

// The log-likelihood term of one sample.
__device__ __forceinline__ double log_likelihood(float p, uint8_t y) {
  double pd = p;
  return y ? log(pd) : log(1.0 - pd);
}

__device__ __forceinline__ double warp_total(double v) {
  for (int delta = 16; delta > 0; delta >>= 1) v += __shfl_down_sync(0xffffffffu, v, delta);
  return v;
}

// Sum of one value per thread over the block (every thread must call it); the
// result is valid in thread 0.
__device__ __forceinline__ double block_total(double v, double* warp_totals) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_total(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  v = 0.0;
  if (warp == 0) v = warp_total(lane < THREADS / 32 ? warp_totals[lane] : 0.0);
  return v;
}

// Within a warp the sum is done in registers with five shuffle steps; only the
// eight warp totals go through shared memory, with a single barrier.
__global__ void bce_block_shuffle(int n, const float* p, const uint8_t* y, double* partials) {
  __shared__ double warp_totals[THREADS / 32];
  int i = blockIdx.x * THREADS + threadIdx.x;
  double v = i < n ? log_likelihood(p[i], y[i]) : 0.0;
  v = block_total(v, warp_totals);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

double bce_loss(int n, const float* p, const uint8_t* y) {
  if (n <= 0) return 0.0;
  float* d_p = nullptr;
  uint8_t* d_y = nullptr;
  cudaMalloc(&d_p, (size_t)n * sizeof(float));
  cudaMalloc(&d_y, (size_t)n);
  cudaMemcpy(d_p, p, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, (size_t)n, cudaMemcpyHostToDevice);
  int blocks = (n + THREADS - 1) / THREADS;
  double* d_partials = nullptr;
  cudaMalloc(&d_partials, (size_t)blocks * sizeof(double));
  bce_block_shuffle<<<blocks, THREADS>>>(n, d_p, d_y, d_partials);
  std::vector<double> partials(blocks);
  cudaMemcpy(partials.data(), d_partials, (size_t)blocks * sizeof(double), cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (double v : partials) sum += v;
  cudaFree(d_p);
  cudaFree(d_y);
  cudaFree(d_partials);
  return -sum / n;
}

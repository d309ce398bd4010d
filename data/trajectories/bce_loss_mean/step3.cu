#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

#define THREADS 256
#define MAX_BLOCKS 1024

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

// At most 1024 blocks: each thread first accumulates a grid-stride slice in a
// register, so there is one block reduction (and one partial for the host)
// per 1024 blocks' worth of threads instead of per 256 samples.
__global__ void bce_grid_stride(int n, const float* p, const uint8_t* y, double* partials) {
  __shared__ double warp_totals[THREADS / 32];
  double v = 0.0;
  size_t stride = (size_t)gridDim.x * THREADS;
  for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += stride) {
    v += log_likelihood(p[i], y[i]);
  }
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
  int want = (n + THREADS - 1) / THREADS;
  int blocks = want < MAX_BLOCKS ? want : MAX_BLOCKS;
  double* d_partials = nullptr;
  cudaMalloc(&d_partials, (size_t)blocks * sizeof(double));
  bce_grid_stride<<<blocks, THREADS>>>(n, d_p, d_y, d_partials);
  std::vector<double> partials(blocks);
  cudaMemcpy(partials.data(), d_partials, (size_t)blocks * sizeof(double), cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (double v : partials) sum += v;
  cudaFree(d_p);
  cudaFree(d_y);
  cudaFree(d_partials);
  return -sum / n;
}

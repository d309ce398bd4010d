#include <cuda_runtime.h>
#include <cstdint>

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

// One kernel for the whole loss: every block publishes its partial and takes a
// ticket; the block that draws the last ticket sees all partials, sums them
// and writes the mean. Only one double is copied back and the host loop is
// gone.
__global__ void bce_fused(int n, const float* __restrict__ p, const uint8_t* __restrict__ y, double* partials,
                          unsigned int* ticket, double* loss) {
  __shared__ double warp_totals[THREADS / 32];
  __shared__ bool is_last;
  double v = 0.0;
  size_t stride = (size_t)gridDim.x * THREADS;
  for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += stride) {
    v += log_likelihood(p[i], y[i]);
  }
  v = block_total(v, warp_totals);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  const volatile double* seen = partials;  // not through L1: other blocks wrote these
  double total = 0.0;
  for (int b = threadIdx.x; b < (int)gridDim.x; b += THREADS) total += seen[b];
  __syncthreads();  // warp_totals is reused
  total = block_total(total, warp_totals);
  if (threadIdx.x == 0) *loss = -total / n;
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
  double *d_partials = nullptr, *d_loss = nullptr;
  unsigned int* d_ticket = nullptr;
  cudaMalloc(&d_partials, (size_t)blocks * sizeof(double));
  cudaMalloc(&d_loss, sizeof(double));
  cudaMalloc(&d_ticket, sizeof(unsigned int));
  cudaMemset(d_ticket, 0, sizeof(unsigned int));
  bce_fused<<<blocks, THREADS>>>(n, d_p, d_y, d_partials, d_ticket, d_loss);
  double loss = 0.0;
  cudaMemcpy(&loss, d_loss, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_y);
  cudaFree(d_partials);
  cudaFree(d_loss);
  cudaFree(d_ticket);
  return loss;
}

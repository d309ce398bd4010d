#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

#define THREADS 256

// The log-likelihood term of one sample.
__device__ __forceinline__ double log_likelihood(float p, uint8_t y) {
  double pd = p;
  return y ? log(pd) : log(1.0 - pd);
}

// A block per 256 samples: each thread puts its sample's term (0 past n) in
// shared memory and an 8-level halving tree sums them; the block's partial is
// finished on the host.
__global__ void bce_block_tree(int n, const float* p, const uint8_t* y, double* partials) {
  __shared__ double part[THREADS];
  int t = threadIdx.x;
  int i = blockIdx.x * THREADS + t;
  part[t] = i < n ? log_likelihood(p[i], y[i]) : 0.0;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = part[0];
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
  bce_block_tree<<<blocks, THREADS>>>(n, d_p, d_y, d_partials);
  std::vector<double> partials(blocks);
  cudaMemcpy(partials.data(), d_partials, (size_t)blocks * sizeof(double), cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (double v : partials) sum += v;
  cudaFree(d_p);
  cudaFree(d_y);
  cudaFree(d_partials);
  return -sum / n;
}

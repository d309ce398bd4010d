#include <cuda_runtime.h>

// Phase 1: one thread per segment computes the mean (same summation order as
// the serial code).
__global__ void segment_mean_kernel(int b, int l, const float* __restrict__ x, float* __restrict__ mean) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= b) return;
  const float* xs = x + (size_t)s * l;
  float sum = 0.0f;
  for (int j = 0; j < l; ++j) sum += xs[j];
  mean[s] = sum / (float)l;
}

// Phase 2: one thread per element, so consecutive threads write consecutive
// addresses; the segment mean is a cached broadcast read.
__global__ void subtract_kernel(long long total, int l, const float* __restrict__ x,
                                const float* __restrict__ mean, float* __restrict__ y) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  y[i] = x[i] - mean[i / l];
}

void batched_mean_center(int b, int l, const float* x, float* y) {
  if (b <= 0 || l <= 0) return;
  long long total = (long long)b * l;
  size_t bytes = (size_t)total * sizeof(float);
  float *dx = nullptr, *dy = nullptr, *dmean = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dmean, (size_t)b * sizeof(float));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  segment_mean_kernel<<<(b + 127) / 128, 128>>>(b, l, dx, dmean);
  int block = 256;
  subtract_kernel<<<(unsigned)((total + block - 1) / block), block>>>(total, l, dx, dmean, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dmean);
}

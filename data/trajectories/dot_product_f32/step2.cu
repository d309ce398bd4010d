#include <cuda_runtime.h>

constexpr int kBlock = 256;

// Each block reduces its 256 products in shared memory (log2(256) halving
// steps) and thread 0 issues one double atomic for the whole block.
__global__ void dot_block_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                                 double* acc) {
  __shared__ float partial[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  partial[tid] = (i < n) ? x[i] * y[i] : 0.0f;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(acc, static_cast<double>(partial[0]));
}

float innerProduct(int n, const float* x, const float* y) {
  if (n <= 0) return 0.0f;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  double* dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dacc, sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dacc, 0, sizeof(double));
  int grid = (n + kBlock - 1) / kBlock;
  dot_block_kernel<<<grid, kBlock>>>(n, dx, dy, dacc);
  double result = 0.0;
  cudaMemcpy(&result, dacc, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dacc);
  return static_cast<float>(result);
}

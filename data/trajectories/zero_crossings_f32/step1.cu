#include <cuda_runtime.h>

constexpr int kBlock = 256;

// 1 when exactly one of the two samples is negative.
__device__ __forceinline__ int crosses(float a, float b) { return (a < 0.0f) != (b < 0.0f); }

// One thread per pair (i, i+1); each crossing increments the counter atomically.
__global__ void crossing_kernel(int n, const float* x, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n) return;
  if (crosses(x[i], x[i + 1])) atomicAdd(count, 1);
}

int countSignChanges(int n, const float* x) {
  if (n < 2) return 0;
  float* dx = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  int pairs = n - 1;
  crossing_kernel<<<(pairs + kBlock - 1) / kBlock, kBlock>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}

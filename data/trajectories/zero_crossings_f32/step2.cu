#include <cuda_runtime.h>

constexpr int kBlock = 256;

// 1 when exactly one of the two samples is negative.
__device__ __forceinline__ int crosses(float a, float b) { return (a < 0.0f) != (b < 0.0f); }

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// One pair per thread; the warp adds its 32 flags with shuffles and lane 0
// issues one atomic (threads past the last pair contribute 0 but stay for the
// shuffles).
__global__ void crossing_kernel(int n, const float* x, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = (i + 1 < n) ? crosses(x[i], x[i + 1]) : 0;
  c = warp_sum(c);
  if ((threadIdx.x & 31) == 0 && c != 0) atomicAdd(count, c);
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

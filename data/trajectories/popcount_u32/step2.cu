#include <cuda_runtime.h>
#include <cstdint>

// __popc maps to the single POPC instruction: constant time, no loop.
__global__ void popcount_kernel(int n, const uint32_t* __restrict__ words, int* __restrict__ counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = __popc(words[i]);
}

void countSetBits(int n, const uint32_t* words, int* counts) {
  if (n <= 0) return;
  uint32_t* dw = nullptr;
  int* dc = nullptr;
  cudaMalloc(&dw, static_cast<size_t>(n) * sizeof(uint32_t));
  cudaMalloc(&dc, static_cast<size_t>(n) * sizeof(int));
  cudaMemcpy(dw, words, static_cast<size_t>(n) * sizeof(uint32_t), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  popcount_kernel<<<grid, block>>>(n, dw, dc);
  cudaMemcpy(counts, dc, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dw);
  cudaFree(dc);
}

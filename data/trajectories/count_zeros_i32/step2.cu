#include <cuda_runtime.h>

// Warp-aggregated atomics: the warp votes with __ballot_sync, and lane 0 adds
// the population count of the vote in one atomic for all 32 lanes.
__global__ void count_zeros_kernel(int n, const int* __restrict__ x, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool is_zero = (i < n) && (x[i] == 0);
  unsigned int vote = __ballot_sync(0xffffffffu, is_zero);
  if ((threadIdx.x & 31) == 0 && vote != 0u) atomicAdd(count, __popc(vote));
}

int countZeroEntries(int n, const int* x) {
  if (n <= 0) return 0;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dx = nullptr, *dcount = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  int block = 256;
  int grid = (n + block - 1) / block;
  count_zeros_kernel<<<grid, block>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}

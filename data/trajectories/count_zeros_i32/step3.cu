#include <cuda_runtime.h>

// Bounded grid: each thread counts zeros of its grid-stride slice in a
// register; the warp then sums the 32 counters with __reduce_add_sync
// (sm_80+) and lane 0 issues the warp's only atomic.
__global__ void count_zeros_kernel(int n, const int* __restrict__ x, int* count) {
  unsigned int c = 0;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c += (x[i] == 0);
  c = __reduce_add_sync(0xffffffffu, c);
  if ((threadIdx.x & 31) == 0 && c != 0u) atomicAdd(count, static_cast<int>(c));
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
  if (grid > 1024) grid = 1024;
  count_zeros_kernel<<<grid, block>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}

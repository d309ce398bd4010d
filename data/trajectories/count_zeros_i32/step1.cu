#include <cuda_runtime.h>

// One thread per element; each zero increments the global counter atomically.
__global__ void count_zeros_kernel(int n, const int* x, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] == 0) atomicAdd(count, 1);
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

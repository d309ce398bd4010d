#include <cuda_runtime.h>

// One thread per key, one global atomic increment each.
__global__ void hist16_kernel(int n, const int* keys, int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i]], 1);
}

void histogram16Bins(int n, const int* keys, int* bins) {
  int* dbins = nullptr;
  cudaMalloc(&dbins, 16 * sizeof(int));
  cudaMemset(dbins, 0, 16 * sizeof(int));
  if (n > 0) {
    int* dkeys = nullptr;
    cudaMalloc(&dkeys, static_cast<size_t>(n) * sizeof(int));
    cudaMemcpy(dkeys, keys, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
    int block = 256;
    int grid = (n + block - 1) / block;
    hist16_kernel<<<grid, block>>>(n, dkeys, dbins);
    cudaFree(dkeys);
  }
  cudaMemcpy(bins, dbins, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dbins);
}

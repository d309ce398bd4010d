#include <cuda_runtime.h>

// Bounded grid: each block fills its shared histogram from a grid-stride
// slice, so the zeroing, barriers and 16 global merges are paid once per
// block for many keys instead of once per 256 keys.
__global__ void hist16_kernel(int n, const int* __restrict__ keys, int* bins) {
  __shared__ int local[16];
  int tid = threadIdx.x;
  if (tid < 16) local[tid] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += stride) atomicAdd(&local[keys[i]], 1);
  __syncthreads();
  if (tid < 16 && local[tid] != 0) atomicAdd(&bins[tid], local[tid]);
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
    if (grid > 512) grid = 512;
    hist16_kernel<<<grid, block>>>(n, dkeys, dbins);
    cudaFree(dkeys);
  }
  cudaMemcpy(bins, dbins, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dbins);
}

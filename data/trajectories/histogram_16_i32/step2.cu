#include <cuda_runtime.h>

// Per-block private histogram in shared memory: shared atomics during the
// pass, then at most 16 global atomics per block to merge.
__global__ void hist16_kernel(int n, const int* __restrict__ keys, int* bins) {
  __shared__ int local[16];
  int tid = threadIdx.x;
  if (tid < 16) local[tid] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n) atomicAdd(&local[keys[i]], 1);
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
    hist16_kernel<<<grid, block>>>(n, dkeys, dbins);
    cudaFree(dkeys);
  }
  cudaMemcpy(bins, dbins, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dbins);
}

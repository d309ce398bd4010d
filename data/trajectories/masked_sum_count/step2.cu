#include <cuda_runtime.h>
#include <cstdint>

// Block-level privatisation: each block accumulates into a shared-memory
// copy of the two results (fast on-chip atomics), and only thread 0 issues
// one global atomic per result per block.
__global__ void masked_kernel(int n, const float* __restrict__ x, const uint8_t* __restrict__ mask,
                              double* sum, int* count) {
  __shared__ double bsum;
  __shared__ int bcount;
  if (threadIdx.x == 0) {
    bsum = 0.0;
    bcount = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && mask[i]) {
    atomicAdd(&bsum, (double)x[i]);
    atomicAdd(&bcount, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0 && bcount > 0) {
    atomicAdd(sum, bsum);
    atomicAdd(count, bcount);
  }
}

void masked_sum_count(int n, const float* x, const uint8_t* mask, double& sum, int& count) {
  sum = 0.0;
  count = 0;
  if (n <= 0) return;
  float* dx = nullptr;
  uint8_t* dm = nullptr;
  double* dsum = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dm, (size_t)n);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mask, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dcount, 0, sizeof(int));
  int block = 256;
  masked_kernel<<<(n + block - 1) / block, block>>>(n, dx, dm, dsum, dcount);
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dm);
  cudaFree(dsum);
  cudaFree(dcount);
}

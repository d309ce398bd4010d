#include <cuda_runtime.h>
#include <cstdint>

// One thread per element; selected elements update the two global
// accumulators directly with atomicAdd (double atomicAdd: sm_60+).
__global__ void masked_kernel(int n, const float* x, const uint8_t* mask, double* sum, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (mask[i]) {
    atomicAdd(sum, (double)x[i]);
    atomicAdd(count, 1);
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

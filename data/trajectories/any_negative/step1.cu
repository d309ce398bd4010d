#include <cuda_runtime.h>

// One thread per element. Every thread that sees a negative stores 1 to the
// same flag: concurrent identical stores need no atomic.
__global__ void any_negative_kernel(int n, const float* x, int* flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0.0f) *flag = 1;
}

bool containsNegative(int n, const float* x) {
  if (n <= 0) return false;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* dx = nullptr;
  int* dflag = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dflag, sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dflag, 0, sizeof(int));
  int block = 256;
  int grid = (n + block - 1) / block;
  any_negative_kernel<<<grid, block>>>(n, dx, dflag);
  int flag = 0;
  cudaMemcpy(&flag, dflag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dflag);
  return flag != 0;
}

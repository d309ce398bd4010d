#include <cuda_runtime.h>

// Four elements per thread through one float4 load; the first n % 4 threads
// also check one tail element.
__global__ void any_negative_kernel(int n, const float* __restrict__ x, int* flag) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool neg = false;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    neg = (v.x < 0.0f) | (v.y < 0.0f) | (v.z < 0.0f) | (v.w < 0.0f);
  }
  if (i < (n & 3)) neg |= x[(n4 << 2) + i] < 0.0f;
  if (neg) *flag = 1;
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
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  any_negative_kernel<<<grid, block>>>(n, dx, dflag);
  int flag = 0;
  cudaMemcpy(&flag, dflag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dflag);
  return flag != 0;
}

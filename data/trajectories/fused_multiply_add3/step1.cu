#include <cuda_runtime.h>

__global__ void fma3_kernel(int n, const float* a, const float* b, const float* c, float* d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = a[i] * b[i] + c[i];
}

void multiplyAddArrays(int n, const float* a, const float* b, const float* c, float* d) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *da = nullptr, *db = nullptr, *dc = nullptr, *dd = nullptr;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMalloc(&dd, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  fma3_kernel<<<grid, block>>>(n, da, db, dc, dd);
  cudaMemcpy(d, dd, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dd);
}

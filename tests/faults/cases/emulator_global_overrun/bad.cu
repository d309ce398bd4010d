#include <cuda_runtime.h>

__global__ void saxpy_kernel(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  for (; i < n; i += stride) y[i] = a * x[i] + y[i];
  if (blockIdx.x == 0 && threadIdx.x == 0) y[n + 300] = 0.0f;  // past the buffer
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n <= 0) return;
  float *dx = nullptr, *dy = nullptr;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 65535) grid = 65535;
  saxpy_kernel<<<grid, block>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

#include <cuda_runtime.h>
#include <cmath>

__global__ void gelu_kernel(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float k = 0.7978845608f;
    float v = x[i];
    float u = k * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

void geluTanhApprox(int n, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  gelu_kernel<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

#include <cuda_runtime.h>
#include <cmath>

// Grid-stride loop: any grid size covers any n.
__global__ void sigmoid_kernel(int n, const float* x, float* y) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = 1.0f / (1.0f + expf(-x[i]));
  }
}

void logisticSigmoid(int n, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 4096) grid = 4096;
  sigmoid_kernel<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

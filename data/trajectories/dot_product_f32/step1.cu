#include <cuda_runtime.h>

// One thread per element, each adding its product into a single double
// accumulator with a global atomic.
__global__ void dot_atomic_kernel(int n, const float* x, const float* y, double* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(acc, static_cast<double>(x[i]) * static_cast<double>(y[i]));
}

float innerProduct(int n, const float* x, const float* y) {
  if (n <= 0) return 0.0f;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  double* dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dacc, sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dacc, 0, sizeof(double));
  int block = 256;
  int grid = (n + block - 1) / block;
  dot_atomic_kernel<<<grid, block>>>(n, dx, dy, dacc);
  double result = 0.0;
  cudaMemcpy(&result, dacc, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dacc);
  return static_cast<float>(result);
}

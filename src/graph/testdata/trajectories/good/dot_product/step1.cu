#include <cuda_runtime.h>

__global__ void dot_kernel(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i] * y[i]);
}

float dot_product(const float* x, const float* y, int n) {
  float *dx, *dy, *dout, result = 0.0f;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dout, sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(float));
  dot_kernel<<<(n + 255) / 256, 256>>>(dx, dy, dout, n);
  cudaMemcpy(&result, dout, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  return result;
}

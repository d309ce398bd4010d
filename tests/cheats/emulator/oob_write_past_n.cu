// Bounds: a write one element past the end of the output allocation (the
// last thread "pads" the array).
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == n - 1) y[n] = 0.0f;
}
void saxpy(int n, float a, const float* x, float* y) {
  if (n <= 0) return;
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  cudaMalloc(&dx, b);
  cudaMalloc(&dy, b);
  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

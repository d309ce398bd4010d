// Host code writes through a cudaMalloc'ed pointer: works on a CPU, faults
// on a GPU.
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  if (n <= 0) return;
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  cudaMalloc(&dx, b);
  cudaMalloc(&dy, b);
  for (int i = 0; i < n; ++i) dx[i] = x[i];
  cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

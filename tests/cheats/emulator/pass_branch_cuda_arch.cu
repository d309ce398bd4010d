// Computes one thing when nvcc's device pass compiles it and another when
// the emulator does: the kernel body branches on __CUDA_ARCH__, which only
// the device passes define. On a GPU y gets an extra +1 (wrong); the
// emulator, reading the host view, would see the right code.
#include <cuda_runtime.h>

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#ifdef __CUDA_ARCH__
  y[i] = a * x[i] + y[i] + 1.0f;
#else
  y[i] = a * x[i] + y[i];
#endif
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

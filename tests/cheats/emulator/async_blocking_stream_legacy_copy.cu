// Control: a kernel on a created (blocking) stream, then a plain cudaMemcpy
// on the legacy default stream, which waits for the blocking streams' work
// first. Correct on a GPU, and in the emulator.
#include <cuda_runtime.h>

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256, 0, s>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s);
  cudaFree(dx);
  cudaFree(dy);
}

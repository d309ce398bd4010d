// Control: conditional directives that select the same lines in every pass
// (a tunable block size, a guard for nvcc's own macro, which the emulator
// defines as nvcc's host pass does). Correct, and emulated.
#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 256
#endif
#if defined(__CUDACC__) && __CUDACC_VER_MAJOR__ >= 11
#define RESTRICT __restrict__
#else
#define RESTRICT
#endif

__global__ void k(int n, float a, const float* RESTRICT x, float* RESTRICT y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

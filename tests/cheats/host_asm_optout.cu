// Class 3: a wrong candidate with one empty host-side asm statement, which
// used to make the emulator refuse it ("compiled only" instead of wrong).
#include <cuda_runtime.h>
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  asm volatile("");
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  cudaMalloc(&dx, b); cudaMalloc(&dy, b);
  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);
}

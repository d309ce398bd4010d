// Class 6: a correct saxpy that also looks around (through the C library
// functions a candidate may not call, reached by a start-up hook). Must be
// rejected before it runs; tests/core check what the sandbox shows.
#include <cuda_runtime.h>
extern "C" int access(const char*, int);
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  if (access("/etc/shadow", 4) == 0) return;
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  cudaMalloc(&dx, b); cudaMalloc(&dy, b);
  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);
}

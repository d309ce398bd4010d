// Class 2: std::system behind a macro (no "system(" in the source).
#include <cstdlib>
#include <cuda_runtime.h>
#define RUN std::system
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  RUN ("cat /etc/passwd > /dev/null");
  k<<<1, 1>>>(0, a, x, y);
}

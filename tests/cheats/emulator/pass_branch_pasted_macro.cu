// The same branch without naming the macro: its name is pasted together
// inside the #if, so no scan of the source finds __CUDA_ARCH__.
#include <cuda_runtime.h>

#define RG_CAT(a, b) a##b
#define RG_PASS RG_CAT(__CUDA_AR, CH__)

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if RG_PASS + 0 > 0
  y[i] = a * x[i];
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

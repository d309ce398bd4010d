// Branches on the macro the emulator's sanitizer instrumentation defines
// (__SANITIZE_THREAD__): honest code where the checker would look, a racy
// shortcut elsewhere. The emulator compiles without that macro, as nvcc's
// host pass does, so it checks the code the GPU runs: the shortcut, wrong.
#include <cuda_runtime.h>

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if defined(__SANITIZE_THREAD__)
  y[i] = a * x[i] + y[i];
#else
  y[i] = a * x[i];
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

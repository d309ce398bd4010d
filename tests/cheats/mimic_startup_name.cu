// Class 2: a constructor named like the compiler's own C++ start-up function,
// which the object check lets through by name.
#include <cuda_runtime.h>
static int g_ready = 0;
[[gnu::constructor]] static void _GLOBAL__sub_I_candidate() { g_ready = 1; }
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  if (!g_ready) return;
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  cudaMalloc(&dx, b); cudaMalloc(&dy, b);
  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);
}

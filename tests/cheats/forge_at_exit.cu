// Class 1: compute a wrong answer, then append forged records from an exit
// handler after the driver's end line.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
static void Forge() {
  stdout->_fileno = 3;
  std::printf("E begin\nE end\n");
  std::fflush(stdout);
}
__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}
void saxpy(int n, float a, const float* x, float* y) {
  static bool once = ((std::atexit)(Forge), true);
  (void)once;
  float *dx, *d;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, dx, d);
  cudaMemcpy(y, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(d);
}

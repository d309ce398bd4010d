// Returns before its output is written: the result is copied back on a
// non-blocking stream into the caller's own (pinned) vector, and nobody
// waits for it. A caller reading y right after the call sees its old
// contents; the harness compares the outputs as they are when the function
// returns (issue 31).
#include <cuda_runtime.h>


__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  if (n == 0) return;
  cudaHostRegister(y, n * sizeof(float), cudaHostRegisterDefault);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256, 0, s>>>(n, a, dx, dy);
  cudaMemcpyAsync(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamDestroy(s);  // returns at once; the work still runs
}

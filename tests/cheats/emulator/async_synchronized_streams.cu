// Control: the same asynchronous pipeline as async_return_pinned_output.cu
// (non-blocking stream, pinned caller memory, copies and a kernel queued),
// but it waits for its stream before returning. Correct.
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
  cudaEvent_t done;
  cudaEventCreate(&done);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpyAsync(dx, x, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(dy, y, n * sizeof(float), cudaMemcpyHostToDevice, s);
  k<<<(n + 255) / 256, 256, 0, s>>>(n, a, dx, dy);
  cudaMemcpyAsync(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);
  cudaEventDestroy(done);
  cudaStreamDestroy(s);
  cudaHostUnregister(y);
  cudaFree(dx);
  cudaFree(dy);
}

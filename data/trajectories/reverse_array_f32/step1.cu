#include <cuda_runtime.h>

// One thread per output element; a warp reads 32 consecutive input floats in
// descending order, which is still a single coalesced segment.
__global__ void reverse_kernel(int n, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[n - 1 - i];
}

void reversedCopy(int n, const float* in, float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  reverse_kernel<<<grid, block>>>(n, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}

#include <cuda_runtime.h>
#include <cstdint>

// One thread per pixel.
__global__ void binarize_naive(int n, const float* in, float threshold, uint8_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] > threshold ? 255 : 0;
}

void binarize_threshold(int n, const float* in, float threshold, uint8_t* out) {
  if (n <= 0) return;
  float* d_in = nullptr;
  uint8_t* d_out = nullptr;
  cudaMalloc(&d_in, (size_t)n * sizeof(float));
  cudaMalloc(&d_out, (size_t)n);
  cudaMemcpy(d_in, in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  binarize_naive<<<(n + 255) / 256, 256>>>(n, d_in, threshold, d_out);
  cudaMemcpy(out, d_out, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

#include <cuda_runtime.h>

// One thread per output sample; taps and signal read from global memory.
__global__ void fir9_naive(int n, const float* x, const float* taps, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 9; ++k) {
    int j = i + k - 4;
    if (j >= 0 && j < n) acc += taps[k] * x[j];
  }
  y[i] = acc;
}

void fir9_filter(int n, const float* x, const float* taps, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr, *d_taps = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMalloc(&d_taps, 9 * sizeof(float));
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_taps, taps, 9 * sizeof(float), cudaMemcpyHostToDevice);
  fir9_naive<<<(n + 255) / 256, 256>>>(n, d_x, d_taps, d_y);
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_taps);
}

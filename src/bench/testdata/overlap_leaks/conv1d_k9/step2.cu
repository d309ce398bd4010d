#include <cuda_runtime.h>

// All threads read tap k at the same time: constant memory broadcasts it.
__constant__ float c_taps[9];

__global__ void fir9_const(int n, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 9; ++k) {
    int j = i + k - 4;
    if (j >= 0 && j < n) acc += c_taps[k] * x[j];
  }
  y[i] = acc;
}

void fir9_filter(int n, const float* x, const float* taps, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_taps, taps, 9 * sizeof(float));
  fir9_const<<<(n + 255) / 256, 256>>>(n, d_x, d_y);
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
}

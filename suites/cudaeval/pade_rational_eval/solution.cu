#include <cuda_runtime.h>
#include <cstddef>

// Step 2 (constant_memory): the numerator's and denominator's coefficients
// are read by every thread at the same index at the same time: the constant
// cache broadcasts them in one transaction per warp.
__constant__ float c_num[7];
__constant__ float c_den[7];

// Step 1 (thread_mapping): one thread per sample (grid-stride loop).
__global__ void rational_kernel(int n, const float* __restrict__ x, float* __restrict__ y) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = x[i];
    float num = c_num[6];
    float den = c_den[6];
#pragma unroll
    for (int k = 5; k >= 0; --k) {
      num = num * v + c_num[k];
      den = den * v + c_den[k];
    }
    y[i] = num / den;
  }
}

void rationalEval(int n, const float* x, const float* p, const float* q, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  cudaMemcpyToSymbol(c_num, p, 7 * sizeof(float));
  cudaMemcpyToSymbol(c_den, q, 7 * sizeof(float));
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int needed = (n + block - 1) / block;
  int cap = sms * 8;
  int grid = needed < cap ? needed : cap;
  rational_kernel<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

#include <cuda_runtime.h>

// One thread per point: map x to t and run Clenshaw's recurrence exactly as
// the serial loop does.
__global__ void cheb_kernel(int n, const float* x, const float* coef, float lo, float hi,
                            float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = (2.0f * x[i] - lo - hi) / (hi - lo);
    float b1 = 0.0f, b2 = 0.0f;
    for (int k = 11; k >= 1; --k) {
      float b0 = coef[k] + 2.0f * t * b1 - b2;
      b2 = b1;
      b1 = b0;
    }
    y[i] = coef[0] + t * b1 - b2;
  }
}

void chebyshevSeries(int n, const float* x, const float* coef, float lo, float hi, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dc = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dc, 12 * sizeof(float));
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, coef, 12 * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  cheb_kernel<<<grid, block>>>(n, dx, dc, lo, hi, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dc);
  cudaFree(dy);
}

#include <cuda_runtime.h>

// t = x * scale - shift with scale = 2/(hi-lo) and shift = (lo+hi)/(hi-lo)
// computed once on the host: no division per point. The loop-invariant 2t is
// formed once per point instead of once per recurrence step.
__global__ void cheb_kernel(int n, const float* x, const float* coef, float scale, float shift,
                            float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = x[i] * scale - shift;
    float t2 = t + t;
    float b1 = 0.0f, b2 = 0.0f;
    for (int k = 11; k >= 1; --k) {
      float b0 = coef[k] + t2 * b1 - b2;
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
  float inv_width = 1.0f / (hi - lo);
  float scale = 2.0f * inv_width;
  float shift = (lo + hi) * inv_width;
  int block = 256;
  int grid = (n + block - 1) / block;
  cheb_kernel<<<grid, block>>>(n, dx, dc, scale, shift, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dc);
  cudaFree(dy);
}

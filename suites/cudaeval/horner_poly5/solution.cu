#include <cuda_runtime.h>

// Step 1 (thread_mapping): one x value per thread; the six coefficients are
// kernel parameters, so every thread reads them from the constant bank.
// Step 2 (fast_math_intrinsics): each Horner step is written as one explicit
// fused multiply-add (fmaf): five FMA instructions per element, and a single
// rounding per step instead of two.
__global__ void horner_poly5_kernel(int n, float c0, float c1, float c2, float c3, float c4, float c5,
                                    const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float p = fmaf(c5, v, c4);
  p = fmaf(p, v, c3);
  p = fmaf(p, v, c2);
  p = fmaf(p, v, c1);
  p = fmaf(p, v, c0);
  y[i] = p;
}

void hornerPoly5(int n, float c0, float c1, float c2, float c3, float c4, float c5, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  int grid = (n + block - 1) / block;
  horner_poly5_kernel<<<grid, block>>>(n, c0, c1, c2, c3, c4, c5, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}

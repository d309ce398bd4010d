#include <cuda_runtime.h>
#include <cmath>

// Bounded grid: each thread accumulates a grid-stride slice in a register and
// issues a single atomic.
__global__ void sumsq_kernel(int n, const float* __restrict__ g, double* sq) {
  double acc = 0.0;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = g[i];
    acc = fma(v, v, acc);
  }
  atomicAdd(sq, acc);
}

__global__ void scale_kernel(int n, float* __restrict__ g, float s) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) g[i] *= s;
}

void clipGradientNorm(int n, float* g, float max_norm) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* dg = nullptr;
  double* dsq = nullptr;
  cudaMalloc(&dg, bytes);
  cudaMalloc(&dsq, sizeof(double));
  cudaMemcpy(dg, g, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsq, 0, sizeof(double));
  int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 1024) grid = 1024;
  sumsq_kernel<<<grid, block>>>(n, dg, dsq);
  double sq = 0.0;
  cudaMemcpy(&sq, dsq, sizeof(double), cudaMemcpyDeviceToHost);
  double norm = std::sqrt(sq);
  if (norm > max_norm) {
    float s = static_cast<float>(max_norm / norm);
    scale_kernel<<<grid, block>>>(n, dg, s);
    cudaMemcpy(g, dg, bytes, cudaMemcpyDeviceToHost);
  }
  cudaFree(dg);
  cudaFree(dsq);
}

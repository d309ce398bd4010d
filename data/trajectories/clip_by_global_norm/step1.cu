#include <cuda_runtime.h>
#include <cmath>

// One thread per element adds its square to a double total with an atomic.
__global__ void sumsq_kernel(int n, const float* g, double* sq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = g[i];
    atomicAdd(sq, v * v);
  }
}

__global__ void scale_kernel(int n, float* g, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] *= s;
}

// The host reads the total, decides, and only then scales and copies back
// (g is left untouched on the host when no clipping is needed).
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

#include <cuda_runtime.h>
#include <cmath>

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Warp shuffles, then warp 0 combines the 8 warp sums: one atomic per block.
__device__ __forceinline__ void block_add(double acc, double* sq) {
  __shared__ double warp_sums[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  acc = warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = (lane < (int)(blockDim.x >> 5)) ? warp_sums[lane] : 0.0;
    acc = warp_sum(acc);
    if (lane == 0) atomicAdd(sq, acc);
  }
}

__global__ void sumsq_kernel(int n, const float* __restrict__ g, double* sq) {
  double acc = 0.0;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = g[i];
    acc = fma(v, v, acc);
  }
  block_add(acc, sq);
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

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

// float4 loads (and float4 read-modify-writes in the scaling pass); the first
// n % 4 threads of the grid handle the tail elements.
__global__ void sumsq_kernel(int n, const float* __restrict__ g, double* sq) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  int n4 = n >> 2;
  const float4* g4 = reinterpret_cast<const float4*>(g);
  double acc = 0.0;
  for (int i = gtid; i < n4; i += stride) {
    float4 v = g4[i];
    acc = fma((double)v.x, (double)v.x, acc);
    acc = fma((double)v.y, (double)v.y, acc);
    acc = fma((double)v.z, (double)v.z, acc);
    acc = fma((double)v.w, (double)v.w, acc);
  }
  if (gtid < (n & 3)) {
    double v = g[(n4 << 2) + gtid];
    acc = fma(v, v, acc);
  }
  block_add(acc, sq);
}

__global__ void scale_kernel(int n, float* __restrict__ g, float s) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  int n4 = n >> 2;
  float4* g4 = reinterpret_cast<float4*>(g);
  for (int i = gtid; i < n4; i += stride) {
    float4 v = g4[i];
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    g4[i] = v;
  }
  if (gtid < (n & 3)) g[(n4 << 2) + gtid] *= s;
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
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
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

#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxBlocks = 1024;

// 1 when exactly one of the two samples is negative.
__device__ __forceinline__ int crosses(float a, float b) { return (a < 0.0f) != (b < 0.0f); }

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Bounded grid: each thread counts many pairs privately over a grid-stride
// loop before the warp and block combine.
__global__ void crossing_kernel(int n, const float* x, int* count) {
  __shared__ int warp_tot[kWarps];
  int c = 0;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 1 < n; i += stride) c += crosses(x[i], x[i + 1]);
  c = warp_sum(c);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = c;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kWarps ? warp_tot[lane] : 0;
    w = warp_sum(w);
    if (lane == 0 && w != 0) atomicAdd(count, w);
  }
}

int countSignChanges(int n, const float* x) {
  if (n < 2) return 0;
  float* dx = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  int pairs = n - 1;
  int blocks = (pairs + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  crossing_kernel<<<blocks, kBlock>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}

#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxBlocks = 1024;

__device__ __forceinline__ int absdiff(int a, int b) {
  int d = a - b;
  return d < 0 ? -d : d;
}

__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Shuffle reduction per warp, 8 warp sums in shared memory, warp 0 finishes
// and adds the block's total atomically.
__device__ __forceinline__ void block_add(long long v, unsigned long long* total) {
  __shared__ long long warp_tot[kWarps];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    long long w = lane < kWarps ? warp_tot[lane] : 0;
    w = warp_sum(w);
    if (lane == 0) atomicAdd(total, static_cast<unsigned long long>(w));
  }
}

__global__ void row_kernel(int n, const int* x, unsigned long long* total) {
  int tid = threadIdx.x;
  long long v = 0;
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    int xi = x[i];
    for (int j = i + 1 + tid; j < n; j += kBlock) v += absdiff(xi, x[j]);
  }
  block_add(v, total);
}

int64_t pairwiseAbsDiffSum(int n, const int* x) {
  if (n < 2) return 0;
  int* dx = nullptr;
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  int blocks = n < kMaxBlocks ? n : kMaxBlocks;
  row_kernel<<<blocks, kBlock>>>(n, dx, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

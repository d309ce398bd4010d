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

// The partners of row i are read as aligned int4 groups (cudaMalloc alignment):
// groups from the one holding i+1 up to n/4 - 1, with the components j <= i of
// the first group masked out; the n % 4 trailing partners are read singly by
// the threads tid < n % 4.
__global__ void row_kernel(int n, const int* x, unsigned long long* total) {
  int tid = threadIdx.x;
  int n4 = n >> 2;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  long long v = 0;
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    int xi = x[i];
    for (int g = ((i + 1) >> 2) + tid; g < n4; g += kBlock) {
      int4 q = x4[g];
      int j = 4 * g;
      int a0 = j > i ? absdiff(xi, q.x) : 0;
      int a1 = j + 1 > i ? absdiff(xi, q.y) : 0;
      int a2 = j + 2 > i ? absdiff(xi, q.z) : 0;
      int a3 = j + 3 > i ? absdiff(xi, q.w) : 0;
      v += static_cast<long long>(a0) + a1 + a2 + a3;
    }
    int j = 4 * n4 + tid;
    if (j < n && j > i) v += absdiff(xi, x[j]);
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

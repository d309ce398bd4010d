#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxBlocks = 1024;

__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Grid-stride private sums; warps reduce with shuffles, the 8 warp sums meet in
// shared memory and warp 0 finishes: one barrier instead of nine.
__global__ void lookup_kernel(int n, const int* codes, const int* table, unsigned long long* total) {
  __shared__ long long warp_tot[kWarps];
  long long v = 0;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) v += table[codes[i]];
  v = warp_sum(v);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    long long w = lane < kWarps ? warp_tot[lane] : 0;
    w = warp_sum(w);
    if (lane == 0) atomicAdd(total, static_cast<unsigned long long>(w));
  }
}

int64_t lookupTableSum(int n, const int* codes, int m, const int* table) {
  if (n <= 0) return 0;
  int *dcodes = nullptr, *dtable = nullptr;
  cudaMalloc(&dcodes, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtable, static_cast<size_t>(m) * sizeof(int));
  cudaMemcpy(dcodes, codes, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dtable, table, static_cast<size_t>(m) * sizeof(int), cudaMemcpyHostToDevice);
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  int blocks = (n + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  lookup_kernel<<<blocks, kBlock>>>(n, dcodes, dtable, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dcodes);
  cudaFree(dtable);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kGroup = 16;
constexpr int kMaxBlocks = 2048;

// Sum over the 16 lanes of a group (the two halves of a warp stay separate).
__device__ __forceinline__ int group_sum(int c) {
#pragma unroll
  for (int off = kGroup / 2; off > 0; off >>= 1) c += __shfl_xor_sync(0xffffffffu, c, off, kGroup);
  return c;
}

// Bounded grid: each 16-lane group walks vertices with a grid stride, keeping
// a private per-lane count, so the shuffles, the block merge and the atomic
// happen once per group and block rather than once per vertex.
__global__ void same_label_kernel(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                  const int* __restrict__ labels, int* __restrict__ count) {
  __shared__ int warp_tot[kWarps];
  int lane = threadIdx.x & (kGroup - 1);
  int groups = gridDim.x * (kBlock / kGroup);
  int c = 0;
  for (int v = (blockIdx.x * blockDim.x + threadIdx.x) / kGroup; v < n; v += groups) {
    int lv = __ldg(labels + v);
    int begin = __ldg(row_ptr + v), end = __ldg(row_ptr + v + 1);
    for (int e = begin + lane; e < end; e += kGroup) c += __ldg(labels + __ldg(col_idx + e)) == lv;
  }
  c = group_sum(c);
  c += __shfl_xor_sync(0xffffffffu, c, kGroup);  // both groups of the warp
  int wl = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (wl == 0) warp_tot[warp] = c;
  __syncthreads();
  if (warp == 0) {
    int w = wl < kWarps ? warp_tot[wl] : 0;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) w += __shfl_xor_sync(0xffffffffu, w, off);
    if (wl == 0 && w != 0) atomicAdd(count, w);
  }
}

int countSameLabelEdges(int n, const int* row_ptr, const int* col_idx, const int* labels) {
  if (n <= 0) return 0;
  int nnz = row_ptr[n];
  int *drow = nullptr, *dcol = nullptr, *dlab = nullptr, *dcount = nullptr;
  cudaMalloc(&drow, static_cast<size_t>(n + 1) * sizeof(int));
  cudaMalloc(&dcol, static_cast<size_t>(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&dlab, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(drow, row_ptr, static_cast<size_t>(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(dcol, col_idx, static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dlab, labels, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  long long threads = static_cast<long long>(n) * kGroup;
  long long need = (threads + kBlock - 1) / kBlock;
  int blocks = need < kMaxBlocks ? static_cast<int>(need) : kMaxBlocks;
  same_label_kernel<<<blocks, kBlock>>>(n, drow, dcol, dlab, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(drow);
  cudaFree(dcol);
  cudaFree(dlab);
  cudaFree(dcount);
  return count;
}

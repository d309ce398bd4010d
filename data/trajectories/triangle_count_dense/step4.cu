#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

__device__ __forceinline__ unsigned long long warp_sum_u64(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Layout change: each adjacency row (n bytes) is packed into W = ceil(n/32)
// 32-bit words. A warp reads 32 consecutive bytes of a row and __ballot_sync
// turns them into one word; bits past n stay 0.
__global__ void pack_rows(int n, int W, const uint8_t* adj, unsigned* bits) {
  int i = blockIdx.y;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  bool pred = k < n && adj[(size_t)i * n + k] != 0;
  unsigned word = __ballot_sync(0xffffffffu, pred);
  if ((threadIdx.x & 31) == 0 && k < n) bits[(size_t)i * W + (k >> 5)] = word;
}

#define BLOCK 256

// One block row per vertex i (blockIdx.y = i, threads over j). The block
// copies row i's bitset (W words) into shared memory once; every thread then
// intersects it with its own row j, so row i is read from shared memory
// instead of by every thread from global memory.
__global__ void tri_bits_rowshared(int n, int W, const unsigned* __restrict__ bits, unsigned long long* total) {
  extern __shared__ unsigned rowi[];
  __shared__ unsigned long long warp_tot[BLOCK / 32];
  int i = blockIdx.y;
  for (int w = threadIdx.x; w < W; w += BLOCK) rowi[w] = bits[(size_t)i * W + w];
  __syncthreads();
  int j = blockIdx.x * BLOCK + threadIdx.x;
  unsigned long long c = 0;
  if (j < n && j > i) {
    int wj = j >> 5, bj = j & 31;
    unsigned wi = rowi[wj];
    if ((wi >> bj) & 1u) {
      const unsigned* rj = bits + (size_t)j * W;
      unsigned above = (bj == 31) ? 0u : (0xffffffffu << (bj + 1));
      c = (unsigned long long)__popc(wi & rj[wj] & above);
      for (int w = wj + 1; w < W; ++w) c += (unsigned long long)__popc(rowi[w] & rj[w]);
    }
  }
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  c = warp_sum_u64(c);
  if (lane == 0) warp_tot[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = (lane < BLOCK / 32) ? warp_tot[lane] : 0ull;
    c = warp_sum_u64(c);
    if (lane == 0 && c != 0ull) atomicAdd(total, c);
  }
}

int64_t count_triangles_dense(int n, const uint8_t* adj) {
  if (n < 3) return 0;
  size_t bytes = (size_t)n * (size_t)n;
  int W = (n + 31) / 32;
  uint8_t* d_adj = nullptr;
  unsigned* d_bits = nullptr;
  unsigned long long* d_total = nullptr;
  cudaMalloc(&d_adj, bytes);
  cudaMalloc(&d_bits, (size_t)n * W * sizeof(unsigned));
  cudaMalloc(&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_adj, adj, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));
  dim3 pgrid((unsigned)((n + 255) / 256), (unsigned)n);
  pack_rows<<<pgrid, 256>>>(n, W, d_adj, d_bits);
  dim3 grid((unsigned)((n + BLOCK - 1) / BLOCK), (unsigned)n);
  tri_bits_rowshared<<<grid, BLOCK, (size_t)W * sizeof(unsigned)>>>(n, W, d_bits, d_total);
  unsigned long long total = 0;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(d_adj);
  cudaFree(d_bits);
  cudaFree(d_total);
  return (int64_t)total;
}

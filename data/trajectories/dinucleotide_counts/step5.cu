#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define WARPS (THREADS / 32)
#define MAX_BLOCKS 512

// All eight warps of a block still hammer the same 16 shared counters, and
// with only 16 values many lanes of a warp collide on one. Each warp now owns
// a row of 16 counters; after the barrier threads 0..15 add their counter over
// the eight rows and do one global atomic each.
__global__ void pairs_warp_rows(int n, const uint8_t* __restrict__ seq, int* __restrict__ counts) {
  __shared__ int local[WARPS][16];
  if (threadIdx.x < WARPS * 16) local[threadIdx.x / 16][threadIdx.x % 16] = 0;
  __syncthreads();
  int* mine = local[threadIdx.x / 32];
  int quads = n / 4;
  const uchar4* s4 = reinterpret_cast<const uchar4*>(seq);
  for (int q = blockIdx.x * THREADS + threadIdx.x; q < quads; q += gridDim.x * THREADS) {
    uchar4 b = s4[q];
    atomicAdd(&mine[4 * b.x + b.y], 1);
    atomicAdd(&mine[4 * b.y + b.z], 1);
    atomicAdd(&mine[4 * b.z + b.w], 1);
    if (4 * q + 4 < n) atomicAdd(&mine[4 * b.w + seq[4 * q + 4]], 1);  // the pair into the next group
  }
  // The pairs that start in the last n % 4 bases (fewer than 3) go to the first threads.
  int t = blockIdx.x * THREADS + threadIdx.x;
  int i = 4 * quads + t;
  if (t < 3 && i + 1 < n) atomicAdd(&mine[4 * seq[i] + seq[i + 1]], 1);
  __syncthreads();
  if (threadIdx.x < 16) {
    int c = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) c += local[w][threadIdx.x];
    if (c != 0) atomicAdd(&counts[threadIdx.x], c);
  }
}

void dinucleotide_counts(int n, const uint8_t* seq, int* counts) {
  int* d_counts = nullptr;
  cudaMalloc(&d_counts, 16 * sizeof(int));
  cudaMemset(d_counts, 0, 16 * sizeof(int));
  if (n > 1) {
    uint8_t* d_seq = nullptr;
    cudaMalloc(&d_seq, (size_t)n);
    cudaMemcpy(d_seq, seq, (size_t)n, cudaMemcpyHostToDevice);
    int blocks = (n / 4 + THREADS - 1) / THREADS;
    if (blocks < 1) blocks = 1;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    pairs_warp_rows<<<blocks, THREADS>>>(n, d_seq, d_counts);
    cudaFree(d_seq);
  }
  cudaMemcpy(counts, d_counts, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}

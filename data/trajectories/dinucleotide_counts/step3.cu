#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define MAX_BLOCKS 512

// Every 256 pairs still paid for zeroing, two barriers and up to 16 global
// atomics. At most 512 blocks now loop over the sequence with a grid stride
// and merge once at the end.
__global__ void pairs_block_stride(int n, const uint8_t* seq, int* counts) {
  __shared__ int local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * THREADS + threadIdx.x; i + 1 < n; i += gridDim.x * THREADS) {
    atomicAdd(&local[4 * seq[i] + seq[i + 1]], 1);
  }
  __syncthreads();
  if (threadIdx.x < 16 && local[threadIdx.x] != 0) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

void dinucleotide_counts(int n, const uint8_t* seq, int* counts) {
  int* d_counts = nullptr;
  cudaMalloc(&d_counts, 16 * sizeof(int));
  cudaMemset(d_counts, 0, 16 * sizeof(int));
  if (n > 1) {
    uint8_t* d_seq = nullptr;
    cudaMalloc(&d_seq, (size_t)n);
    cudaMemcpy(d_seq, seq, (size_t)n, cudaMemcpyHostToDevice);
    int blocks = (n - 1 + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    pairs_block_stride<<<blocks, THREADS>>>(n, d_seq, d_counts);
    cudaFree(d_seq);
  }
  cudaMemcpy(counts, d_counts, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}

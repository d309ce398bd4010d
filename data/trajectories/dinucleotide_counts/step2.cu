#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256

// With 16 counters every global atomic collides with thousands of others. Each
// block counts into its own 16 shared counters (on-chip atomics) and merges at
// most 16 totals into global memory.
__global__ void pairs_block(int n, const uint8_t* seq, int* counts) {
  __shared__ int local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i + 1 < n) atomicAdd(&local[4 * seq[i] + seq[i + 1]], 1);
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
    pairs_block<<<(n - 1 + THREADS - 1) / THREADS, THREADS>>>(n, d_seq, d_counts);
    cudaFree(d_seq);
  }
  cudaMemcpy(counts, d_counts, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}

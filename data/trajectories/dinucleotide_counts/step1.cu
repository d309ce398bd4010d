#include <cuda_runtime.h>
#include <cstdint>

// One thread per adjacent pair; the 16 counters are updated with global atomics.
__global__ void pairs_global(int n, const uint8_t* seq, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) atomicAdd(&counts[4 * seq[i] + seq[i + 1]], 1);
}

void dinucleotide_counts(int n, const uint8_t* seq, int* counts) {
  int* d_counts = nullptr;
  cudaMalloc(&d_counts, 16 * sizeof(int));
  cudaMemset(d_counts, 0, 16 * sizeof(int));
  if (n > 1) {
    uint8_t* d_seq = nullptr;
    cudaMalloc(&d_seq, (size_t)n);
    cudaMemcpy(d_seq, seq, (size_t)n, cudaMemcpyHostToDevice);
    pairs_global<<<(n - 1 + 255) / 256, 256>>>(n, d_seq, d_counts);
    cudaFree(d_seq);
  }
  cudaMemcpy(counts, d_counts, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}

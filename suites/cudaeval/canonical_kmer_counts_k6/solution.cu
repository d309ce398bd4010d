#include <cuda_runtime.h>

// Step 1 (thread_mapping): thread t takes the window starts
// [t*kKmRun, (t+1)*kKmRun); its windows overlap, so it reads the run plus
// 5 following bases.
// Step 2 (register_caching): the forward code, the reverse-complement code
// and the number of valid bases in the current window roll in registers:
// each base is decoded once and shifted in (the forward code at the low end,
// the reverse complement at the high end), instead of decoding six bases
// per window.
// Step 3 (atomic_operations): windows of different threads hit the same bins,
// so counts are incremented with atomicAdd.
// Step 4 (atomic_aggregation): each block counts into a private 4096-bin
// histogram in shared memory (16 KB) and adds its non-zero bins to the
// global counts once at the end.
constexpr int kKmBins = 4096;
constexpr int kKmRun = 64;
constexpr int kKmBlock = 256;

__device__ __forceinline__ int km_base(char c) {
  return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
}

__global__ void kmer_count_kernel(const char* __restrict__ seq, int n, int* __restrict__ counts) {
  __shared__ int hist[kKmBins];
  for (int b = threadIdx.x; b < kKmBins; b += kKmBlock) hist[b] = 0;
  __syncthreads();
  const long long first = ((long long)blockIdx.x * kKmBlock + threadIdx.x) * kKmRun;  // first window start
  const long long windows = (long long)n - 5;                                       // window starts 0..n-6
  if (first < windows) {
    const long long last = min(first + kKmRun, windows);  // one past the last window start
    int code = 0, rc = 0, valid = 0;
    for (long long i = first; i < last + 5; ++i) {
      int b = km_base(seq[i]);
      if (b < 0) {
        valid = 0;
        b = 0;
      } else {
        ++valid;
      }
      code = ((code << 2) | b) & (kKmBins - 1);
      rc = (rc >> 2) | ((3 - b) << 10);
      if (i >= first + 5 && valid >= 6) atomicAdd(&hist[code < rc ? code : rc], 1);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kKmBins; b += kKmBlock) {
    int c = hist[b];
    if (c != 0) atomicAdd(&counts[b], c);
  }
}

void canonicalKmerCounts6(const char* seq, int n, int* counts) {
  int* dcounts = nullptr;
  cudaMalloc(&dcounts, kKmBins * sizeof(int));
  cudaMemset(dcounts, 0, kKmBins * sizeof(int));
  char* dseq = nullptr;
  if (n >= 6) {
    cudaMalloc(&dseq, (size_t)n);
    cudaMemcpy(dseq, seq, (size_t)n, cudaMemcpyHostToDevice);
    long long windows = (long long)n - 5;
    long long threads = (windows + kKmRun - 1) / kKmRun;
    int grid = (int)((threads + kKmBlock - 1) / kKmBlock);
    kmer_count_kernel<<<grid, kKmBlock>>>(dseq, n, dcounts);
  }
  cudaMemcpy(counts, dcounts, kKmBins * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dseq);
  cudaFree(dcounts);
}

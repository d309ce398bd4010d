#include <cuda_runtime.h>

// Step 1 (thread_mapping): every start position is tested by one thread; a
// block covers kImPer * kImBlock consecutive positions, thread t taking
// t, t + kImBlock, ... so a warp tests 32 neighbouring positions at a time.
// Step 2 (shared_memory_tiling): a block's positions read overlapping
// windows, so the block stages its bases plus the m - 1 after them in shared
// memory (dynamic size) before testing. (A motif too long for shared memory
// falls back to reading global memory.)
// Step 3 (strength_reduction): while staging, each base is turned into a
// one-hot 4-bit mask (A=1, C=2, G=4, T=8, anything else 0) and each motif
// code into the mask of bases it allows; the two switch statements per
// comparison become one AND.
// Step 4 (warp_shuffle_reduction): hits are summed within each warp with
// __shfl_down_sync.
// Step 5 (atomic_aggregation): warp sums meet in shared memory and one
// atomicAdd per block updates the global count.
constexpr int kImBlock = 256;
constexpr int kImPer = 16;
constexpr int kImSpan = kImBlock * kImPer;  // positions per block
constexpr size_t kImMaxShared = 200 * 1024;

__device__ __forceinline__ unsigned char im_base_mask(char c) {
  return c == 'A' ? 1 : c == 'C' ? 2 : c == 'G' ? 4 : c == 'T' ? 8 : 0;
}

__device__ __forceinline__ unsigned char im_code_mask(char c) {
  switch (c) {
    case 'A': return 1;
    case 'C': return 2;
    case 'G': return 4;
    case 'T': return 8;
    case 'R': return 5;
    case 'Y': return 10;
    case 'S': return 6;
    case 'W': return 9;
    case 'K': return 12;
    case 'M': return 3;
    case 'B': return 14;
    case 'D': return 13;
    case 'H': return 11;
    case 'V': return 7;
    case 'N': return 15;
    default: return 0;
  }
}

template <bool kShared>
__global__ void motif_count_kernel(const char* __restrict__ seq, int n, const char* __restrict__ motif, int m,
                                   int* __restrict__ count) {
  extern __shared__ unsigned char im_smem[];
  unsigned char* codes = im_smem;      // m motif masks
  unsigned char* bases = im_smem + m;  // kImSpan + m - 1 base masks
  __shared__ int warp_hits[kImBlock / 32];
  const long long start = (long long)blockIdx.x * kImSpan;
  if (kShared) {
    for (int j = threadIdx.x; j < m; j += kImBlock) codes[j] = im_code_mask(motif[j]);
    for (int t = threadIdx.x; t < kImSpan + m - 1; t += kImBlock) {
      long long i = start + t;
      bases[t] = i < n ? im_base_mask(seq[i]) : 0;
    }
    __syncthreads();
  }
  int hit = 0;
  for (int t = threadIdx.x; t < kImSpan; t += kImBlock) {
    if (start + t + m > n) break;
    int j = 0;
    if (kShared) {
      while (j < m && (codes[j] & bases[t + j])) ++j;
    } else {
      while (j < m && (im_code_mask(motif[j]) & im_base_mask(seq[start + t + j]))) ++j;
    }
    hit += (j == m);
  }
  for (int off = 16; off > 0; off >>= 1) hit += __shfl_down_sync(0xffffffffu, hit, off);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_hits[warp] = hit;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < kImBlock / 32; ++w) total += warp_hits[w];
    if (total != 0) atomicAdd(count, total);
  }
}

int countIupacMotif(const char* seq, int n, const char* motif, int m) {
  int* dcount = nullptr;
  cudaMalloc(&dcount, sizeof(int));
  cudaMemset(dcount, 0, sizeof(int));
  char *dseq = nullptr, *dmotif = nullptr;
  if (m >= 1 && n >= m) {
    cudaMalloc(&dseq, (size_t)n);
    cudaMalloc(&dmotif, (size_t)m);
    cudaMemcpy(dseq, seq, (size_t)n, cudaMemcpyHostToDevice);
    cudaMemcpy(dmotif, motif, (size_t)m, cudaMemcpyHostToDevice);
    long long positions = (long long)n - m + 1;
    int grid = (int)((positions + kImSpan - 1) / kImSpan);
    size_t smem = 2 * (size_t)m + kImSpan - 1;
    if (smem <= kImMaxShared) {
      if (smem > 48 * 1024) {
        cudaFuncSetAttribute(motif_count_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
      }
      motif_count_kernel<true><<<grid, kImBlock, smem>>>(dseq, n, dmotif, m, dcount);
    } else {
      motif_count_kernel<false><<<grid, kImBlock>>>(dseq, n, dmotif, m, dcount);
    }
  }
  int result = 0;
  cudaMemcpy(&result, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dseq);
  cudaFree(dmotif);
  cudaFree(dcount);
  return result;
}

#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): text positions go to threads in chunks: thread t
// of a block computes the kMaS consecutive outputs of its chunk.
// Step 2 (algorithmic_restructuring): the serial column recurrence runs
// along the whole text, but an optimal substring ending at j is never longer
// than 2m (a longer one costs more than m, the cost of the empty one), so
// the column at j depends only on the 2m characters before it. Each chunk
// therefore restarts the recurrence 2m characters before its first output
// (from the initial column 0, 1, ..., m) and is exact from its first output
// on: chunks are independent.
// Step 3 (strength_reduction): a column of m <= 64 cells is held as Myers'
// bit vectors of vertical +1/-1 deltas in two 64-bit words; one text
// character updates the whole column with a dozen word operations, and the
// last cell's value is tracked by +-1 instead of m min-of-three cells.
// Step 4 (shared_memory_tiling): a block stages its text segment plus the 2m
// warm-up characters, the pattern's 256-entry match-mask table (built in the
// kernel) and its outputs in shared memory.
// Step 5 (bank_conflict_avoidance): at each step the 32 threads of a warp
// read characters kMaS = 128 bytes apart, which would all fall in one bank;
// the text and output buffers are padded with one word every 128 bytes, so
// those reads spread over 32 banks.
// Step 6 (memory_coalescing): outputs are staged in shared memory as bytes
// (a distance is at most 64) and written to global memory by consecutive
// threads to consecutive ints, instead of each thread writing its chunk with
// a stride of 512 bytes across the warp.
constexpr int kMaBlock = 128;
constexpr int kMaS = 128;                    // outputs per thread
constexpr int kMaSpan = kMaBlock * kMaS;     // outputs per block
constexpr int kMaMaxWarm = 128;              // 2m for m <= 64
constexpr int kMaText = kMaMaxWarm + kMaSpan;

__host__ __device__ constexpr int ma_pad(int i) { return i + (i >> 7) * 4; }

__global__ void approx_match_kernel(const char* __restrict__ text, int n, const char* __restrict__ pattern, int m,
                                    int* __restrict__ best) {
  __shared__ unsigned long long peq[256];
  __shared__ unsigned char text_s[ma_pad(kMaText) + 4];
  __shared__ unsigned char out_s[ma_pad(kMaSpan) + 4];
  const int warm = 2 * m;
  const long long block_start = (long long)blockIdx.x * kMaSpan;
  for (int c = threadIdx.x; c < 256; c += kMaBlock) {
    unsigned long long mask = 0;
    for (int i = 0; i < m; ++i) {
      if ((unsigned char)pattern[i] == c) mask |= 1ull << i;
    }
    peq[c] = mask;
  }
  for (int l = threadIdx.x; l < warm + kMaSpan; l += kMaBlock) {
    long long g = block_start - warm + l;
    text_s[ma_pad(l)] = (g >= 0 && g < n) ? (unsigned char)text[g] : 0;
  }
  __syncthreads();
  const long long a = block_start + (long long)threadIdx.x * kMaS;  // first output of this chunk
  if (a < n) {
    const long long s = a - warm > 0 ? a - warm : 0;
    const long long end = a + kMaS < n ? a + kMaS : n;
    const unsigned long long high = 1ull << (m - 1);
    unsigned long long pv = ~0ull, mv = 0;
    int score = m;
    for (long long p = s; p < end; ++p) {
      const unsigned long long eq = peq[text_s[ma_pad((int)(p - (block_start - warm)))]];
      const unsigned long long xv = eq | mv;
      const unsigned long long xh = (((eq & pv) + pv) ^ pv) | eq;
      unsigned long long ph = mv | ~(xh | pv);
      unsigned long long mh = pv & xh;
      if (ph & high) {
        ++score;
      } else if (mh & high) {
        --score;
      }
      ph <<= 1;  // row 0 of every column is 0: no +1 shifted in (search, not global)
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      if (p >= a) out_s[ma_pad((int)(threadIdx.x * kMaS + (p - a)))] = (unsigned char)score;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kMaSpan; i += kMaBlock) {
    long long g = block_start + i;
    if (g < n) best[g] = out_s[ma_pad(i)];
  }
}

void approxMatchMinEdits(const char* text, int n, const char* pattern, int m, int* best) {
  if (n <= 0 || m <= 0 || m > 64) return;
  char *dtext = nullptr, *dpat = nullptr;
  int* dbest = nullptr;
  cudaMalloc(&dtext, (size_t)n);
  cudaMalloc(&dpat, (size_t)m);
  cudaMalloc(&dbest, (size_t)n * sizeof(int));
  cudaMemcpy(dtext, text, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(dpat, pattern, (size_t)m, cudaMemcpyHostToDevice);
  int grid = (int)(((long long)n + kMaSpan - 1) / kMaSpan);
  approx_match_kernel<<<grid, kMaBlock>>>(dtext, n, dpat, m, dbest);
  cudaMemcpy(best, dbest, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dtext);
  cudaFree(dpat);
  cudaFree(dbest);
}

#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): a block produces kMzSpan consecutive windows;
// its threads first hash runs of k-mers, then each produces windows.
// Step 2 (shared_memory_tiling): the block stages the sequence characters it
// needs (coalesced), keeps the k-mer hashes of its span plus the w - 1 that
// follow, and the prefix/suffix minima, in shared memory: nothing but the
// outputs goes back to global memory.
// Step 3 (register_caching): each thread hashes a run of consecutive k-mers
// with a rolling 2-bit code and a count of valid bases held in registers, so
// each base is decoded once instead of k times.
// Step 4 (kernel_fusion): hashing and the window minima run in one kernel; the
// serial code's hash array never exists in memory.
// Step 5 (algorithmic_restructuring): the window minimum uses van Herk /
// Gil-Werman: the hash array is cut into segments of w, each gets prefix and
// suffix minima, and the window starting at s is min(suffix[s],
// prefix[s + w - 1]): three operations per window instead of w.
// Step 6 (bank_conflict_avoidance): in the segment scans thread g walks
// segment g, so a warp's reads are w words apart (all in one bank for
// w = 32); the hash and minima arrays are padded with one word every 32, so
// the lanes hit different banks.
constexpr int kMzBlock = 256;
constexpr int kMzSpan = 2048;                       // windows per block
constexpr int kMzMaxW = 64;
constexpr int kMzMaxK = 16;
constexpr int kMzKmers = kMzSpan + kMzMaxW - 1;     // k-mers a block may need
constexpr int kMzChars = kMzKmers + kMzMaxK - 1;
constexpr int kMzRun = (kMzKmers + kMzBlock - 1) / kMzBlock;

__host__ __device__ constexpr int mz_pad(int i) { return i + (i >> 5); }

__device__ __forceinline__ uint32_t mz_mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__global__ void minimizer_kernel(const char* __restrict__ seq, int n, int k, int w, long long windows,
                                 uint32_t* __restrict__ mins) {
  __shared__ char chars[kMzChars];
  __shared__ uint32_t pre[mz_pad(kMzKmers) + 1];  // hashes, then prefix minima in place
  __shared__ uint32_t suf[mz_pad(kMzKmers) + 1];
  const long long w0 = (long long)blockIdx.x * kMzSpan;  // first window (= first k-mer) of the block
  const int span = (int)min((long long)kMzSpan, windows - w0);
  const int kmers = span + w - 1;
  const int nchars = kmers + k - 1;
  for (int i = threadIdx.x; i < nchars; i += kMzBlock) chars[i] = seq[w0 + i];
  __syncthreads();
  // Hash k-mers [t * kMzRun, (t + 1) * kMzRun) of the block with a rolling code.
  const int first = threadIdx.x * kMzRun;
  const int last = min(first + kMzRun, kmers);
  if (first < last) {
    const uint32_t mask = k == 16 ? 0xFFFFFFFFu : ((1u << (2 * k)) - 1u);
    uint32_t code = 0;
    int valid = 0;
    for (int i = first; i < last + k - 1; ++i) {
      const char c = chars[i];
      const int b = c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
      valid = b < 0 ? 0 : valid + 1;
      code = ((code << 2) | (uint32_t)(b < 0 ? 0 : b)) & mask;
      const int kmer = i - (k - 1);
      if (kmer >= first) pre[mz_pad(kmer)] = valid >= k ? mz_mix(code) : 0xFFFFFFFFu;
    }
  }
  __syncthreads();
  // Prefix and suffix minima within segments of w k-mers.
  const int segments = (kmers + w - 1) / w;
  for (int g = threadIdx.x; g < segments; g += kMzBlock) {
    const int lo = g * w, hi = min(lo + w, kmers);
    uint32_t m = 0xFFFFFFFFu;
    for (int i = hi - 1; i >= lo; --i) {
      m = min(m, pre[mz_pad(i)]);
      suf[mz_pad(i)] = m;
    }
    m = 0xFFFFFFFFu;
    for (int i = lo; i < hi; ++i) {
      m = min(m, pre[mz_pad(i)]);
      pre[mz_pad(i)] = m;
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < span; s += kMzBlock) {
    mins[w0 + s] = min(suf[mz_pad(s)], pre[mz_pad(s + w - 1)]);
  }
}

void minimizerWindows(const char* seq, int n, int k, int w, uint32_t* mins) {
  if (k < 1 || k > kMzMaxK || w < 1 || w > kMzMaxW) return;
  const long long windows = (long long)n - k - w + 2;
  if (windows <= 0) return;
  char* dseq = nullptr;
  uint32_t* dmins = nullptr;
  cudaMalloc(&dseq, (size_t)n);
  cudaMalloc(&dmins, (size_t)windows * sizeof(uint32_t));
  cudaMemcpy(dseq, seq, (size_t)n, cudaMemcpyHostToDevice);
  int grid = (int)((windows + kMzSpan - 1) / kMzSpan);
  minimizer_kernel<<<grid, kMzBlock>>>(dseq, n, k, w, windows, dmins);
  cudaMemcpy(mins, dmins, (size_t)windows * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(dseq);
  cudaFree(dmins);
}

#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Plan: sort 64-bit keys in which every non-zero value maps to its
// order-preserving 32-bit pattern and every zero (and the padding) to 2^32, so
// the first m sorted keys are the m non-zero values in order. A prefix count of
// the non-zero flags then tells each non-zero position which sorted value it gets.

// ---- bitonic sort of unique 64-bit keys (length p, a power of two >= 2) ----
constexpr unsigned kTile = 2048;  // keys per shared-memory tile (1024 threads x 2)

// Bitonic stages inside one tile held in shared memory: stage k0 from step j0
// down to 1, then every later stage up to kEnd.
__global__ void bitonicShared(unsigned long long* keys, unsigned tile, size_t k0, size_t j0, size_t kEnd) {
  extern __shared__ unsigned long long s[];
  size_t base = (size_t)blockIdx.x * tile;
  for (unsigned t = threadIdx.x; t < tile; t += blockDim.x) s[t] = keys[base + t];
  __syncthreads();
  for (size_t k = k0; k <= kEnd; k <<= 1) {
    for (size_t j = (k == k0 ? j0 : k >> 1); j > 0; j >>= 1) {
      for (unsigned t = threadIdx.x; t < tile / 2; t += blockDim.x) {
        unsigned i = (unsigned)(2 * j * (t / j) + (t % j));
        bool up = ((base + i) & k) == 0;
        unsigned long long a = s[i], b = s[i + j];
        if (up ? (b < a) : (a < b)) { s[i] = b; s[i + j] = a; }
      }
      __syncthreads();
    }
  }
  for (unsigned t = threadIdx.x; t < tile; t += blockDim.x) keys[base + t] = s[t];
}

// One bitonic step whose stride is too large for a tile.
__global__ void bitonicGlobal(unsigned long long* keys, size_t half, size_t j, size_t k) {
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < half; t += (size_t)gridDim.x * blockDim.x) {
    size_t i = 2 * j * (t / j) + (t % j);
    bool up = (i & k) == 0;
    unsigned long long a = keys[i], b = keys[i + j];
    if (up ? (b < a) : (a < b)) { keys[i] = b; keys[i + j] = a; }
  }
}

static unsigned gridFor(size_t work, unsigned block) {
  size_t g = (work + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < 65535 ? g : 65535);
}

static void bitonicSort(unsigned long long* dKeys, size_t p) {
  unsigned tile = (unsigned)(p < kTile ? p : kTile);
  unsigned blocks = (unsigned)(p / tile);
  size_t smem = tile * sizeof(unsigned long long);
  bitonicShared<<<blocks, tile / 2, smem>>>(dKeys, tile, 2, 1, tile);
  for (size_t k = (size_t)tile * 2; k <= p; k <<= 1) {
    size_t j = k >> 1;
    for (; j > tile / 2; j >>= 1) bitonicGlobal<<<gridFor(p / 2, 256), 256>>>(dKeys, p / 2, j, k);
    bitonicShared<<<blocks, tile / 2, smem>>>(dKeys, tile, k, j, k);
  }
}

static size_t padPow2(size_t n) {
  size_t p = 2;
  while (p < n) p <<= 1;
  return p;
}
// ---- end bitonic sort ----

constexpr unsigned kScanBlock = 1024;

__global__ void makeKeys(const int* __restrict__ x, unsigned long long* __restrict__ keys, size_t n, size_t p) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < p; i += (size_t)gridDim.x * blockDim.x) {
    int v = i < n ? x[i] : 0;
    keys[i] = v != 0 ? (unsigned long long)((unsigned)v ^ 0x80000000u) : (1ull << 32);
  }
}

// Exclusive prefix count of the flags within one block of kScanBlock threads;
// *total gets the block's count.
__device__ unsigned blockExclusiveCount(bool flag, unsigned* total) {
  __shared__ unsigned warpCounts[32];
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned ballot = __ballot_sync(0xffffffffu, flag);
  unsigned inWarp = __popc(ballot & ((1u << lane) - 1u));
  if (lane == 0) warpCounts[warp] = __popc(ballot);
  __syncthreads();
  if (warp == 0) {
    unsigned c = warpCounts[lane];
    unsigned incl = c;
    for (int off = 1; off < 32; off <<= 1) {
      unsigned o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= (unsigned)off) incl += o;
    }
    warpCounts[lane] = incl - c;
    if (lane == 31) *total = incl;
  }
  __syncthreads();
  return warpCounts[warp] + inWarp;
}

__global__ void countNonZero(const int* __restrict__ x, size_t n, unsigned* __restrict__ blockCounts) {
  __shared__ unsigned total;
  size_t i = blockIdx.x * (size_t)kScanBlock + threadIdx.x;
  blockExclusiveCount(i < n && x[i] != 0, &total);
  if (threadIdx.x == 0) blockCounts[blockIdx.x] = total;
}

// Single block: exclusive scan of the per-block counts, in place.
__global__ void scanBlockCounts(unsigned* counts, unsigned numBlocks) {
  __shared__ unsigned total;
  __shared__ unsigned warpSums[32];
  unsigned carry = 0;
  for (unsigned base = 0; base < numBlocks; base += kScanBlock) {
    unsigned i = base + threadIdx.x;
    unsigned c = i < numBlocks ? counts[i] : 0u;
    // Warp-shuffle scan, then a scan of the warp totals.
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned incl = c;
    for (int off = 1; off < 32; off <<= 1) {
      unsigned o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= (unsigned)off) incl += o;
    }
    if (lane == 31) warpSums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned s = warpSums[lane];
      unsigned si = s;
      for (int off = 1; off < 32; off <<= 1) {
        unsigned o = __shfl_up_sync(0xffffffffu, si, off);
        if (lane >= (unsigned)off) si += o;
      }
      warpSums[lane] = si - s;
      if (lane == 31) total = si;
    }
    __syncthreads();
    if (i < numBlocks) counts[i] = carry + warpSums[warp] + incl - c;
    carry += total;
    __syncthreads();
  }
}

__global__ void refill(const int* __restrict__ x, const unsigned long long* __restrict__ sorted,
                       const unsigned* __restrict__ blockOffsets, int* __restrict__ out, size_t n) {
  __shared__ unsigned total;
  size_t i = blockIdx.x * (size_t)kScanBlock + threadIdx.x;
  int v = i < n ? x[i] : 0;
  unsigned rank = blockExclusiveCount(v != 0, &total) + blockOffsets[blockIdx.x];
  if (i < n) out[i] = v != 0 ? (int)((unsigned)sorted[rank] ^ 0x80000000u) : 0;
}

void sortIgnoreZero(std::vector<int> &x) {
  size_t n = x.size();
  if (n == 0) return;
  size_t p = padPow2(n);
  unsigned numBlocks = (unsigned)((n + kScanBlock - 1) / kScanBlock);
  int *dIn = nullptr, *dOut = nullptr;
  unsigned long long* dKeys = nullptr;
  unsigned* dCounts = nullptr;
  cudaMalloc(&dIn, n * sizeof(int));
  cudaMalloc(&dOut, n * sizeof(int));
  cudaMalloc(&dKeys, p * sizeof(unsigned long long));
  cudaMalloc(&dCounts, numBlocks * sizeof(unsigned));
  cudaMemcpy(dIn, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  makeKeys<<<gridFor(p, 256), 256>>>(dIn, dKeys, n, p);
  bitonicSort(dKeys, p);
  countNonZero<<<numBlocks, kScanBlock>>>(dIn, n, dCounts);
  scanBlockCounts<<<1, kScanBlock>>>(dCounts, numBlocks);
  refill<<<numBlocks, kScanBlock>>>(dIn, dKeys, dCounts, dOut, n);
  cudaMemcpy(x.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dKeys);
  cudaFree(dCounts);
}

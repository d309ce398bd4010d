#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct Result {
   int startTime, duration;
   float value;
};

// Each record becomes a unique 64-bit key: order-preserving bits of startTime
// (high half) and its index (low half), so sorting the keys gives the stable
// order. Padding keys are all ones and sort last.

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

__global__ void makeKeys(const Result* __restrict__ r, unsigned long long* __restrict__ keys, size_t n, size_t p) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < p; i += (size_t)gridDim.x * blockDim.x) {
    keys[i] = i < n ? ((unsigned long long)((unsigned)r[i].startTime ^ 0x80000000u) << 32) | (unsigned long long)i
                    : ~0ull;
  }
}

__global__ void gatherSorted(const Result* __restrict__ in, const unsigned long long* __restrict__ keys,
                             Result* __restrict__ out, size_t n) {
  for (size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x; p < n; p += (size_t)gridDim.x * blockDim.x) {
    out[p] = in[keys[p] & 0xffffffffull];
  }
}

void sortByStartTime(std::vector<Result> &results) {
  size_t n = results.size();
  if (n == 0) return;
  size_t p = padPow2(n);
  Result *dIn = nullptr, *dOut = nullptr;
  unsigned long long* dKeys = nullptr;
  cudaMalloc(&dIn, n * sizeof(Result));
  cudaMalloc(&dOut, n * sizeof(Result));
  cudaMalloc(&dKeys, p * sizeof(unsigned long long));
  cudaMemcpy(dIn, results.data(), n * sizeof(Result), cudaMemcpyHostToDevice);
  makeKeys<<<gridFor(p, 256), 256>>>(dIn, dKeys, n, p);
  bitonicSort(dKeys, p);
  gatherSorted<<<gridFor(n, 256), 256>>>(dIn, dKeys, dOut, n);
  cudaMemcpy(results.data(), dOut, n * sizeof(Result), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dKeys);
}

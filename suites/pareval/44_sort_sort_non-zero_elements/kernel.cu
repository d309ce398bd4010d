#include <cstddef>

// Kernel form, one launch with >= N threads. Each thread holding a non-zero
// value counts the non-zeros that order before it (smaller, or equal and
// earlier), streaming x through shared memory, and stores its value at that
// rank in a scratch buffer. The last block to finish (counter +
// __threadfence) walks x in order and gives the j-th non-zero position the
// j-th scratch value, after every block has finished reading x.
// The scratch buffer is static: N may be at most kCapacity.

constexpr size_t kCapacity = size_t(1) << 22;
constexpr unsigned kTile = 1024;

__device__ int gScratch[kCapacity];
__device__ unsigned int gBlocksDone = 0;

__global__ void sortIgnoreZero(int *x, size_t N) {
  __shared__ int tile[kTile];
  __shared__ unsigned warpCounts[32];
  __shared__ bool isLast;
  if (N > kCapacity) return;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int mine = i < N ? x[i] : 0;
  size_t rank = 0;
  for (size_t base = 0; base < N; base += kTile) {
    for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
      size_t j = base + t;
      if (j < N) tile[t] = x[j];
    }
    __syncthreads();
    if (mine != 0) {
      unsigned count = (unsigned)(N - base < kTile ? N - base : kTile);
      for (unsigned t = 0; t < count; ++t) {
        int v = tile[t];
        rank += v != 0 && (v < mine || (v == mine && base + t < i));
      }
    }
    __syncthreads();
  }
  if (mine != 0) gScratch[rank] = mine;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) isLast = atomicAdd(&gBlocksDone, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!isLast) return;

  // Last block: block-wide exclusive count of non-zeros, chunk by chunk.
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  size_t done = 0;  // non-zeros before the current chunk
  for (size_t base = 0; base < N; base += blockDim.x) {
    size_t t = base + threadIdx.x;
    int v = t < N ? x[t] : 0;
    unsigned ballot = __ballot_sync(0xffffffffu, v != 0);
    unsigned before = __popc(ballot & ((1u << lane) - 1u));
    if (lane == 0) warpCounts[warp] = __popc(ballot);
    __syncthreads();
    unsigned warpOffset = 0, chunkTotal = 0;
    for (unsigned w = 0; w < warps; ++w) {
      unsigned c = warpCounts[w];
      if (w < warp) warpOffset += c;
      chunkTotal += c;
    }
    if (v != 0) x[t] = gScratch[done + warpOffset + before];
    done += chunkTotal;
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicExch(&gBlocksDone, 0u);
}

#include <cstddef>

struct Result {
   int startTime, duration;
   float value;
};

// Kernel form, one launch with >= N threads. Stable sort by rank: every thread
// counts the records that order before its own (smaller startTime, or equal
// startTime and earlier position), streaming the start times through shared
// memory, and stores its record at that rank in a scratch buffer. The last
// block to finish (counter + __threadfence) copies the buffer back, after every
// block has finished reading the input.
// The scratch buffer is static: N may be at most kCapacity.

constexpr size_t kCapacity = size_t(1) << 21;
constexpr unsigned kTile = 1024;

__device__ Result gScratch[kCapacity];
__device__ unsigned int gBlocksDone = 0;

__global__ void sortByStartTime(Result *results, size_t N) {
  __shared__ int tileKey[kTile];
  __shared__ bool isLast;
  if (N > kCapacity) return;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  Result mine = {0, 0, 0.0f};
  if (i < N) mine = results[i];
  size_t rank = 0;
  for (size_t base = 0; base < N; base += kTile) {
    for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
      size_t j = base + t;
      if (j < N) tileKey[t] = results[j].startTime;
    }
    __syncthreads();
    if (i < N) {
      unsigned count = (unsigned)(N - base < kTile ? N - base : kTile);
      for (unsigned t = 0; t < count; ++t) {
        int k = tileKey[t];
        rank += (k < mine.startTime) || (k == mine.startTime && base + t < i);
      }
    }
    __syncthreads();
  }
  if (i < N) gScratch[rank] = mine;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) isLast = atomicAdd(&gBlocksDone, 1u) == gridDim.x - 1;
  __syncthreads();
  if (isLast) {
    for (size_t t = threadIdx.x; t < N; t += blockDim.x) results[t] = gScratch[t];
    if (threadIdx.x == 0) atomicExch(&gBlocksDone, 0u);
  }
}

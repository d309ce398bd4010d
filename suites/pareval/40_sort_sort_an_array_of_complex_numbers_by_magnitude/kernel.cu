#include <cuComplex.h>
#include <cstddef>

// Kernel form, one launch with >= N threads. The sort is done by rank: every
// thread counts how many elements order before its own (smaller magnitude, or
// equal magnitude and earlier position: the stable order), streaming the array
// through shared memory, and stores its element at that rank in a scratch
// buffer. The last block to finish (counter + __threadfence) copies the buffer
// back into x, after every block has finished reading x.
// The scratch buffer is static: N may be at most kCapacity.

constexpr size_t kCapacity = size_t(1) << 21;
constexpr unsigned kTile = 1024;

__device__ cuDoubleComplex gScratch[kCapacity];
__device__ unsigned int gBlocksDone = 0;

__global__ void sortComplexByMagnitude(cuDoubleComplex *x, size_t N) {
  __shared__ double tileMag[kTile];
  __shared__ bool isLast;
  if (N > kCapacity) return;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  cuDoubleComplex mine = make_cuDoubleComplex(0.0, 0.0);
  double mag = 0.0;
  if (i < N) {
    mine = x[i];
    mag = hypot(cuCreal(mine), cuCimag(mine));
  }
  size_t rank = 0;
  for (size_t base = 0; base < N; base += kTile) {
    for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
      size_t j = base + t;
      if (j < N) tileMag[t] = hypot(cuCreal(x[j]), cuCimag(x[j]));
    }
    __syncthreads();
    if (i < N) {
      unsigned count = (unsigned)(N - base < kTile ? N - base : kTile);
      for (unsigned t = 0; t < count; ++t) {
        double m = tileMag[t];
        rank += (m < mag) || (m == mag && base + t < i);
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
    for (size_t t = threadIdx.x; t < N; t += blockDim.x) x[t] = gScratch[t];
    if (threadIdx.x == 0) atomicExch(&gBlocksDone, 0u);
  }
}

#include <cstddef>

// Kernel form, one launch with >= N threads: thread i counts the elements that
// order before x[i] (smaller, or equal and earlier: the stable order), with the
// array streamed through shared memory in tiles, and writes ranks[i].

constexpr unsigned kTile = 1024;

__global__ void ranks(const float *x, size_t *ranks, size_t N) {
  __shared__ float tile[kTile];
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float mine = i < N ? x[i] : 0.0f;
  size_t rank = 0;
  for (size_t base = 0; base < N; base += kTile) {
    for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
      size_t j = base + t;
      if (j < N) tile[t] = x[j];
    }
    __syncthreads();
    if (i < N) {
      unsigned count = (unsigned)(N - base < kTile ? N - base : kTile);
      for (unsigned t = 0; t < count; ++t) {
        float v = tile[t];
        rank += (v < mine) || (v == mine && base + t < i);
      }
    }
    __syncthreads();
  }
  if (i < N) ranks[i] = rank;
}

#include <cstddef>

// Kernel form, one launch with >= N threads; *kthSmallest holds INT_MAX on
// entry. Thread i counts the elements smaller than x[i] and those not larger
// (the array streamed through shared memory); x[i] is the answer when
// less < k <= notLarger. Every thread that finds it holds the same value and
// records it with atomicMin.

constexpr unsigned kTile = 1024;

__global__ void findKthSmallest(const int *x, size_t N, int k, int *kthSmallest) {
  __shared__ int tile[kTile];
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  int mine = i < N ? x[i] : 0;
  size_t less = 0, notLarger = 0;
  for (size_t base = 0; base < N; base += kTile) {
    for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
      size_t j = base + t;
      if (j < N) tile[t] = x[j];
    }
    __syncthreads();
    if (i < N) {
      unsigned count = (unsigned)(N - base < kTile ? N - base : kTile);
      for (unsigned t = 0; t < count; ++t) {
        int v = tile[t];
        less += v < mine;
        notLarger += v <= mine;
      }
    }
    __syncthreads();
  }
  size_t kk = (size_t)k;
  if (i < N && less < kk && kk <= notLarger) atomicMin(kthSmallest, mine);
}

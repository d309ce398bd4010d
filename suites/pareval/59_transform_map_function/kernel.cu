#include <cstddef>

__device__ bool isPowerOfTwo(int x) {
	return (x > 0) && !(x & (x - 1));
}

// One element per thread: coalesced int load, one-byte flag store.
__global__ void mapPowersOfTwo(const int *x, bool *mask, size_t N) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  mask[i] = isPowerOfTwo(x[i]);
}

#include <cstddef>

// One element per thread; coalesced load and store.
__global__ void oneMinusInverse(double *x, size_t N) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  x[i] = 1.0 - 1.0 / x[i];
}

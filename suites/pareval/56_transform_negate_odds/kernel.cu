#include <cstddef>

// One element per thread; coalesced load and store. (v & 1) tests oddness
// for negative values too (two's complement), and v / 2 is exact for evens.
__global__ void negateOddsAndHalveEvens(int *x, size_t N) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const int v = x[i];
  x[i] = (v & 1) ? -v : v / 2;
}

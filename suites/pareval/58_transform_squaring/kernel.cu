#include <cstddef>

// One element per thread; coalesced load and store.
__global__ void squareEach(int *x, size_t N) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const int v = x[i];
  x[i] = v * v;
}

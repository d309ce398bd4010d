#include <cstddef>

// One element per thread; coalesced load and store.
__global__ void relu(double *x, size_t N) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const double v = x[i];
  if (v < 0.0) x[i] = 0.0;
}

#include <cstddef>

// Kernel form: one element per thread (grid-stride, so any launch of at least
// one thread is correct).
__global__ void axpy(double alpha, const double *x, const double *y, double *z, size_t N) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride)
    z[i] = fma(alpha, x[i], y[i]);
}

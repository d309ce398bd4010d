#include <cuComplex.h>
#include <cstddef>

// Kernel form: launched with at least N threads; thread j sums output j
// directly (grid-stride, so any launch shape works). The twiddle index
// (j k) mod N is kept incrementally. For N <= 2048 every block first builds
// the table of the N roots of unity exp(-2 pi i m / N) in shared memory
// (32 KiB); longer signals compute each twiddle with sinpi/cospi of an exact
// argument.
#define DFT_TABLE 2048

__global__ void dft(const double *x, cuDoubleComplex *output, size_t N) {
  __shared__ double2 tw[DFT_TABLE];
  const bool table = N <= DFT_TABLE;
  if (table) {
    for (size_t m = threadIdx.x; m < N; m += blockDim.x) {
      const double t = 2.0 * (double)m / (double)N;
      tw[m] = make_double2(cospi(t), -sinpi(t));
    }
    __syncthreads();
  }
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < N; j += stride) {
    double re = 0.0, im = 0.0;
    size_t m = 0;
    for (size_t k = 0; k < N; ++k) {
      double2 w;
      if (table) {
        w = tw[m];
      } else {
        const double t = 2.0 * (double)m / (double)N;
        w = make_double2(cospi(t), -sinpi(t));
      }
      re = fma(x[k], w.x, re);
      im = fma(x[k], w.y, im);
      m += j;
      if (m >= N) m -= N;
    }
    output[j] = make_cuDoubleComplex(re, im);
  }
}

#include <cstddef>

// Kernel form: the launch has at least M threads; its warps share the rows
// (warp w takes rows w, w + #warps, ...). The lanes of a warp read consecutive
// elements of a row (coalesced) and a shuffle tree adds their partial sums.
__global__ void gemv(const double *A, const double *x, double *y, size_t M, size_t N) {
  const unsigned lane = threadIdx.x & 31u;
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t total = (size_t)gridDim.x * blockDim.x;
  if (blockDim.x % 32 != 0) {  // odd block shapes: one thread per row
    for (size_t row = tid; row < M; row += total) {
      double s = 0.0;
      for (size_t j = 0; j < N; ++j) s = fma(A[row * N + j], x[j], s);
      y[row] = s;
    }
    return;
  }
  size_t warp = tid >> 5, nwarps = total >> 5;
  for (size_t row = warp; row < M; row += nwarps) {
    const double* a = A + row * N;
    // four independent loads in flight per lane: the launch has few warps
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t j = lane;
    for (; j + 96 < N; j += 128) {
      s0 = fma(__ldg(a + j), __ldg(x + j), s0);
      s1 = fma(__ldg(a + j + 32), __ldg(x + j + 32), s1);
      s2 = fma(__ldg(a + j + 64), __ldg(x + j + 64), s2);
      s3 = fma(__ldg(a + j + 96), __ldg(x + j + 96), s3);
    }
    for (; j < N; j += 32) s0 = fma(__ldg(a + j), __ldg(x + j), s0);
    double s = (s0 + s1) + (s2 + s3);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) y[row] = s;
  }
}

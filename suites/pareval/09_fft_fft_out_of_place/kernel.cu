#include <cuComplex.h>
#include <cstddef>

// Kernel-form FFT helpers. Radix-2 stages need a barrier between them and one
// launch has no grid-wide barrier, so for powers of two a single block (block
// 0) runs the whole transform: the bit-reversal permutation, then the stages
// with half-width h < 2048 chunk by chunk in shared memory (2048 values,
// 32 KiB), then the wider stages over global memory, with __syncthreads()
// between stages. Twiddles exp(sign i pi j / h) come from sinpi/cospi of an
// exact argument. Other lengths use the direct O(n^2) sum with the twiddle
// index (j k) mod n.
#define FFTK_CHUNK 2048

struct FftkAoS {  // interleaved complex values
  double2* a;
  __device__ double2 load(size_t k) const { return a[k]; }
  __device__ void store(size_t k, double2 v) const { a[k] = v; }
};

struct FftkSoA {  // real and imaginary parts in separate arrays
  double* re;
  double* im;
  __device__ double2 load(size_t k) const { return make_double2(re[k], im[k]); }
  __device__ void store(size_t k, double2 v) const { re[k] = v.x; im[k] = v.y; }
};

__device__ __forceinline__ double2 fftk_mul(double2 a, double2 b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// exp(sign * i * pi * j / h)
__device__ __forceinline__ double2 fftk_twiddle(size_t j, size_t h, double sign) {
  const double t = (double)j / (double)h;
  return make_double2(cospi(t), sign * sinpi(t));
}

__device__ __forceinline__ size_t fftk_bitrev(size_t i, int logn) {
  return logn == 0 ? 0 : (size_t)(__brevll((unsigned long long)i) >> (64 - logn));
}

__device__ __forceinline__ int fftk_log2(size_t n) {
  int l = 0;
  while (((size_t)1 << l) < n) ++l;
  return l;
}

// Radix-2 butterflies over data already in bit-reversed order (n a power of
// two), by all threads of one block; s is a shared buffer of FFTK_CHUNK values.
template <class Acc>
__device__ void fftk_block_stages(const Acc& acc, size_t n, double sign, double2* s, size_t tid, size_t nt) {
  const size_t chunk = n < FFTK_CHUNK ? n : FFTK_CHUNK;
  for (size_t base = 0; base < n; base += chunk) {
    for (size_t t = tid; t < chunk; t += nt) s[t] = acc.load(base + t);
    __syncthreads();
    for (size_t h = 1; h < chunk; h <<= 1) {
      for (size_t t = tid; t < chunk / 2; t += nt) {
        const size_t j = t & (h - 1);
        const size_t i0 = ((t - j) << 1) + j, i1 = i0 + h;
        const double2 u = s[i0], v = fftk_mul(s[i1], fftk_twiddle(j, h, sign));
        s[i0] = make_double2(u.x + v.x, u.y + v.y);
        s[i1] = make_double2(u.x - v.x, u.y - v.y);
      }
      __syncthreads();
    }
    for (size_t t = tid; t < chunk; t += nt) acc.store(base + t, s[t]);
    __syncthreads();
  }
  for (size_t h = chunk; h < n; h <<= 1) {
    for (size_t t = tid; t < n / 2; t += nt) {
      const size_t j = t & (h - 1);
      const size_t i0 = ((t - j) << 1) + j, i1 = i0 + h;
      const double2 u = acc.load(i0), v = fftk_mul(acc.load(i1), fftk_twiddle(j, h, sign));
      acc.store(i0, make_double2(u.x + v.x, u.y + v.y));
      acc.store(i1, make_double2(u.x - v.x, u.y - v.y));
    }
    __syncthreads();
  }
}

// Direct sum for output j: sum_k in[k] exp(sign 2 pi i j k / n).
__device__ double2 fftk_direct(const double2* in, size_t n, size_t j, double sign) {
  double re = 0.0, im = 0.0;
  size_t m = 0;  // (j * k) mod n
  for (size_t k = 0; k < n; ++k) {
    const double t = 2.0 * (double)m / (double)n;
    const double2 w = make_double2(cospi(t), sign * sinpi(t));
    const double2 v = fftk_mul(in[k], w);
    re += v.x;
    im += v.y;
    m += j;
    if (m >= n) m -= n;
  }
  return make_double2(re, im);
}

__device__ __forceinline__ size_t fftk_block_tid() {
  return threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);
}
__device__ __forceinline__ size_t fftk_block_threads() {
  return (size_t)blockDim.x * blockDim.y * blockDim.z;
}
__device__ __forceinline__ bool fftk_first_block() {
  return blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0;
}

// Powers of two: block 0 copies x in bit-reversed order into output and runs
// the stages there. Other lengths: every thread of the launch (at least N)
// sums its own outputs directly.
__global__ void fft(const cuDoubleComplex *x, cuDoubleComplex *output, size_t N) {
  if ((N & (N - 1)) == 0) {
    if (!fftk_first_block() || N == 0) return;
    __shared__ double2 s[FFTK_CHUNK];
    const size_t tid = fftk_block_tid(), nt = fftk_block_threads();
    const int logn = fftk_log2(N);
    for (size_t k = tid; k < N; k += nt) output[k] = x[fftk_bitrev(k, logn)];
    __syncthreads();
    fftk_block_stages(FftkAoS{output}, N, -1.0, s, tid, nt);
  } else {
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < N; k += stride)
      output[k] = fftk_direct(x, N, k, -1.0);
  }
}

#include <cuda_runtime.h>
#include <complex>
#include <cstddef>
#include <vector>

// Device FFT used by the host function below (double2 = {re, im}, the layout
// of std::complex<double>).
// Powers of two: twiddle table exp(sign 2 pi i k / n) for k < n/2 (sinpi/cospi of
// an exact argument), a gathering bit-reversal copy, the first log2(C) radix-2
// stages of every C-element chunk (C = min(n, 2048)) inside shared memory, then
// one launch per remaining stage over global memory.
// Other lengths: the direct O(n^2) sum, one output per thread, with a table of
// all n twiddles indexed by (j k) mod n.
namespace {

constexpr int kChunk = 2048;  // complex values per shared-memory chunk (32 KiB)

__device__ __forceinline__ double2 cmul(double2 a, double2 b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__global__ void make_twiddles(double2* __restrict__ tw, size_t count, size_t n, double sign) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < count; k += (size_t)gridDim.x * blockDim.x) {
    const double a = 2.0 * (double)k / (double)n;
    tw[k] = make_double2(cospi(a), sign * sinpi(a));
  }
}

__global__ void bit_reverse_copy(const double2* __restrict__ in, double2* __restrict__ out, size_t n, int logn) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    size_t r = logn == 0 ? 0 : (size_t)(__brevll((unsigned long long)i) >> (64 - logn));
    out[i] = in[r];
  }
}

__global__ void __launch_bounds__(512) shared_stages(double2* __restrict__ a, const double2* __restrict__ tw,
                                                     size_t n, int chunk) {
  __shared__ double2 s[kChunk];
  const size_t base = (size_t)blockIdx.x * chunk;
  for (int t = threadIdx.x; t < chunk; t += blockDim.x) s[t] = a[base + t];
  __syncthreads();
  for (int h = 1; h < chunk; h <<= 1) {
    const size_t mult = n / (2 * (size_t)h);
    for (int t = threadIdx.x; t < chunk / 2; t += blockDim.x) {
      const int j = t & (h - 1);
      const int i0 = ((t - j) << 1) + j, i1 = i0 + h;
      const double2 u = s[i0], v = cmul(s[i1], tw[j * mult]);
      s[i0] = make_double2(u.x + v.x, u.y + v.y);
      s[i1] = make_double2(u.x - v.x, u.y - v.y);
    }
    __syncthreads();
  }
  for (int t = threadIdx.x; t < chunk; t += blockDim.x) a[base + t] = s[t];
}

__global__ void global_stage(double2* __restrict__ a, const double2* __restrict__ tw, size_t n, size_t h) {
  const size_t mult = n / (2 * h);
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n / 2; t += (size_t)gridDim.x * blockDim.x) {
    const size_t j = t & (h - 1);
    const size_t i0 = ((t - j) << 1) + j, i1 = i0 + h;
    const double2 u = a[i0], v = cmul(a[i1], tw[j * mult]);
    a[i0] = make_double2(u.x + v.x, u.y + v.y);
    a[i1] = make_double2(u.x - v.x, u.y - v.y);
  }
}

__global__ void direct_dft(const double2* __restrict__ in, double2* __restrict__ out,
                           const double2* __restrict__ tw, size_t n) {
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x) {
    double re = 0.0, im = 0.0;
    size_t m = 0;  // (j * k) mod n
    for (size_t k = 0; k < n; ++k) {
      const double2 v = cmul(__ldg(&in[k]), __ldg(&tw[m]));
      re += v.x;
      im += v.y;
      m += j;
      if (m >= n) m -= n;
    }
    out[j] = make_double2(re, im);
  }
}

unsigned grid_for(size_t work, int block) {
  size_t g = (work + block - 1) / block;
  if (g < 1) g = 1;
  if (g > 65535) g = 65535;
  return (unsigned)g;
}

// out = DFT of in (sign -1) or the unscaled inverse (sign +1); in and out are
// distinct device buffers of n values; tw has room for n values.
void device_dft(const double2* in, double2* out, double2* tw, size_t n, double sign) {
  if ((n & (n - 1)) == 0) {
    int logn = 0;
    while (((size_t)1 << logn) < n) ++logn;
    if (n > 1) make_twiddles<<<grid_for(n / 2, 256), 256>>>(tw, n / 2, n, sign);
    bit_reverse_copy<<<grid_for(n, 256), 256>>>(in, out, n, logn);
    if (n == 1) return;
    const int chunk = n < (size_t)kChunk ? (int)n : kChunk;
    shared_stages<<<(unsigned)(n / chunk), 512>>>(out, tw, n, chunk);
    for (size_t h = chunk; h < n; h <<= 1) global_stage<<<grid_for(n / 2, 256), 256>>>(out, tw, n, h);
  } else {
    make_twiddles<<<grid_for(n, 256), 256>>>(tw, n, n, sign);
    direct_dft<<<grid_for(n, 128), 128>>>(in, out, tw, n);
  }
}

}  // namespace

__global__ void scale_copy(const double2* __restrict__ in, double2* __restrict__ out, size_t n, double s) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const double2 v = in[i];
    out[i] = make_double2(v.x * s, v.y * s);
  }
}

// Inverse transform: the transform with exp(+2 pi i j k / n) twiddles, then a
// 1/n scaling kernel that writes the result back over x.
void ifft(std::vector<std::complex<double>> &x) {
  const size_t n = x.size();
  if (n == 0) return;
  const size_t bytes = n * sizeof(double2);
  double2 *dx = nullptr, *dwork = nullptr, *dtw = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dwork, bytes);
  cudaMalloc(&dtw, bytes);
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  device_dft(dx, dwork, dtw, n, +1.0);
  scale_copy<<<grid_for(n, 256), 256>>>(dwork, dx, n, 1.0 / (double)n);
  cudaMemcpy(x.data(), dx, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dwork);
  cudaFree(dtw);
}

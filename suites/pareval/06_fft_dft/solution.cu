#include <cuda_runtime.h>
#include <complex>
#include <cstddef>
#include <vector>

// Direct O(n^2) DFT of a real signal, one output per thread. A first kernel
// builds the table of the n roots of unity exp(-2 pi i m / n) (sinpi/cospi);
// the sum kernel indexes it by (j k) mod n, kept incrementally. When the table
// fits (n <= 2048, 32 KiB) each block copies it into shared memory, where the
// scattered lookups of a warp are cheap; x[k] is the same for every thread of
// a warp at each step (a broadcast load).
constexpr int kSharedTw = 2048;

__global__ void make_roots(double2* __restrict__ tw, size_t n) {
  for (size_t m = blockIdx.x * (size_t)blockDim.x + threadIdx.x; m < n; m += (size_t)gridDim.x * blockDim.x) {
    const double a = 2.0 * (double)m / (double)n;
    tw[m] = make_double2(cospi(a), -sinpi(a));
  }
}

__global__ void dft_shared(const double* __restrict__ x, const double2* __restrict__ tw,
                           double2* __restrict__ out, int n) {
  __shared__ double2 stw[kSharedTw];
  for (int m = threadIdx.x; m < n; m += blockDim.x) stw[m] = tw[m];
  __syncthreads();
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  double re0 = 0.0, im0 = 0.0, re1 = 0.0, im1 = 0.0;
  int m = 0;
  int k = 0;
  for (; k + 1 < n; k += 2) {
    const double x0 = __ldg(x + k), x1 = __ldg(x + k + 1);
    const double2 w0 = stw[m];
    m += j;
    if (m >= n) m -= n;
    const double2 w1 = stw[m];
    m += j;
    if (m >= n) m -= n;
    re0 = fma(x0, w0.x, re0);
    im0 = fma(x0, w0.y, im0);
    re1 = fma(x1, w1.x, re1);
    im1 = fma(x1, w1.y, im1);
  }
  if (k < n) {
    const double2 w0 = stw[m];
    re0 = fma(__ldg(x + k), w0.x, re0);
    im0 = fma(__ldg(x + k), w0.y, im0);
  }
  out[j] = make_double2(re0 + re1, im0 + im1);
}

__global__ void dft_global(const double* __restrict__ x, const double2* __restrict__ tw,
                           double2* __restrict__ out, size_t n) {
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x) {
    double re = 0.0, im = 0.0;
    size_t m = 0;
    for (size_t k = 0; k < n; ++k) {
      const double xk = __ldg(x + k);
      const double2 w = __ldg(tw + m);
      re = fma(xk, w.x, re);
      im = fma(xk, w.y, im);
      m += j;
      if (m >= n) m -= n;
    }
    out[j] = make_double2(re, im);
  }
}

void dft(std::vector<double> const& x, std::vector<std::complex<double>> &output) {
  const size_t n = x.size();
  if (n == 0) return;
  double* dx = nullptr;
  double2 *dtw = nullptr, *dout = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dtw, n * sizeof(double2));
  cudaMalloc(&dout, n * sizeof(double2));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  const int block = 128;
  unsigned grid = (unsigned)((n + block - 1) / block);
  make_roots<<<grid, block>>>(dtw, n);
  if (n <= (size_t)kSharedTw) {
    dft_shared<<<grid, block>>>(dx, dtw, dout, (int)n);
  } else {
    dft_global<<<grid < 65535u ? grid : 65535u, block>>>(dx, dtw, dout, n);
  }
  cudaMemcpy(output.data(), dout, n * sizeof(double2), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dtw);
  cudaFree(dout);
}

#include <cuda_runtime.h>
#include <vector>

// Pass 1: grid-stride over pairs of elements with 16-byte loads of x and y, warp-shuffle block
// reduction, one partial per block. Pass 2: one block sums the partials.
__device__ __forceinline__ double block_sum(double v, double* warp_vals) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = 0.0;
  if (warp == 0) {
    v = (lane < (int)(blockDim.x >> 5)) ? warp_vals[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  }
  return v;  // valid in thread 0
}

__global__ void min_pair_partials(const double* __restrict__ x, const double* __restrict__ y,
                                  size_t n, double* partials) {
  __shared__ double warp_vals[32];
  double s = 0.0;
  size_t nvec = n / 2;
  const double2* x2 = reinterpret_cast<const double2*>(x);
  const double2* y2 = reinterpret_cast<const double2*>(y);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (size_t k = t; k < nvec; k += stride) {
    double2 a = x2[k], b = y2[k];
    s += fmin(a.x, b.x) + fmin(a.y, b.y);
  }
  if ((n & 1) && t == 0) s += fmin(x[n - 1], y[n - 1]);
  s = block_sum(s, warp_vals);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void sum_partials(const double* __restrict__ partials, int count, double* out) {
  __shared__ double warp_vals[32];
  double s = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) s += partials[i];
  s = block_sum(s, warp_vals);
  if (threadIdx.x == 0) *out = s;
}

double sumOfMinimumElements(std::vector<double> const& x, std::vector<double> const& y) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  const int block = 256;
  size_t want = (n / 2 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  double *dx = nullptr, *dy = nullptr, *dpart = nullptr, *dout = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dy, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMalloc(&dout, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  min_pair_partials<<<grid, block>>>(dx, dy, n, dpart);
  sum_partials<<<1, 1024>>>(dpart, grid, dout);
  double result = 0.0;
  cudaMemcpy(&result, dout, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dpart);
  cudaFree(dout);
  return result;
}

#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

struct MaxSum {
  double m;
  double s;
};

__device__ inline MaxSum merge(MaxSum a, MaxSum b) {
  if (a.m == -INFINITY) return b;
  if (b.m == -INFINITY) return a;
  double m = a.m > b.m ? a.m : b.m;
  MaxSum r;
  r.m = m;
  r.s = a.s * exp(a.m - m) + b.s * exp(b.m - m);
  return r;
}

__device__ __forceinline__ MaxSum warp_merge(MaxSum p) {
  for (int off = 16; off > 0; off >>= 1) {
    MaxSum o;
    o.m = __shfl_down_sync(0xffffffffu, p.m, off);
    o.s = __shfl_down_sync(0xffffffffu, p.s, off);
    p = merge(p, o);
  }
  return p;
}

// Block-wide merge of one pair per thread (every thread must call it);
// the result is valid in thread 0.
__device__ __forceinline__ MaxSum block_merge(MaxSum p, MaxSum* warp_res) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  p = warp_merge(p);
  if (lane == 0) warp_res[warp] = p;
  __syncthreads();
  if (warp == 0) {
    p = (lane < kBlock / 32) ? warp_res[lane] : MaxSum{-INFINITY, 0.0};
    p = warp_merge(p);
  }
  return p;
}

__global__ void online_lse_kernel(const double* __restrict__ x, size_t n, MaxSum* partial) {
  __shared__ MaxSum warp_res[kBlock / 32];
  MaxSum p{-INFINITY, 0.0};
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + threadIdx.x; i < n; i += stride) {
    double v = x[i];
    if (v > p.m) {
      p.s = p.s * exp(p.m - v) + 1.0;
      p.m = v;
    } else {
      p.s += exp(v - p.m);
    }
  }
  p = block_merge(p, warp_res);
  if (threadIdx.x == 0) partial[blockIdx.x] = p;
}

// One block merges the per-block pairs on the device and writes the final
// log-sum-exp, so a single double is copied back instead of the partials.
__global__ void finish_lse_kernel(const MaxSum* __restrict__ partial, int count, double* result) {
  __shared__ MaxSum warp_res[kBlock / 32];
  MaxSum p{-INFINITY, 0.0};
  for (int b = threadIdx.x; b < count; b += kBlock) p = merge(p, partial[b]);
  p = block_merge(p, warp_res);
  if (threadIdx.x == 0) *result = p.m + log(p.s);
}

double logSumExp(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return -INFINITY;
  size_t want = (n + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
  double *dx = nullptr, *dres = nullptr;
  MaxSum* dpart = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(MaxSum));
  cudaMalloc(&dres, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  online_lse_kernel<<<grid, kBlock>>>(dx, n, dpart);
  finish_lse_kernel<<<1, kBlock>>>(dpart, grid, dres);
  double result = 0.0;
  cudaMemcpy(&result, dres, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpart);
  cudaFree(dres);
  return result;
}

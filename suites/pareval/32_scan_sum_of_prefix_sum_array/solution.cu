#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// The sum of all inclusive prefix sums is sum_i x[i] * (n - i): every x[i]
// appears in the prefixes i, i+1, ..., n-1. So the scan collapses to one
// weighted reduction. Pass 1: a grid-stride loop per thread, a warp-shuffle
// tree per warp and a shared-memory combine per block write one partial per
// block. Pass 2: one block reduces the partials the same way. Both passes add
// in a fixed order, so the result is the same on every call.

namespace {
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
}

__device__ __forceinline__ double block_sum(double v) {
  __shared__ double s_warp[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) s_warp[warp] = v;
  __syncthreads();
  double r = 0.0;
  if (warp == 0) {
    r = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) r += __shfl_down_sync(0xffffffffu, r, off);
  }
  return r;  // valid in thread 0
}

__global__ void __launch_bounds__(kThreads)
weighted_partials(const double* __restrict__ x, size_t n, double* __restrict__ partial) {
  double v = 0.0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    v += x[i] * (double)(n - i);
  }
  double r = block_sum(v);
  if (threadIdx.x == 0) partial[blockIdx.x] = r;
}

__global__ void __launch_bounds__(kThreads)
final_sum(const double* __restrict__ partial, int count, double* __restrict__ result) {
  double v = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) v += partial[i];
  double r = block_sum(v);
  if (threadIdx.x == 0) *result = r;
}

double sumOfPrefixSum(std::vector<double> const& x) {
  const size_t n = x.size();
  if (n == 0) return 0.0;
  size_t want = (n + kThreads - 1) / kThreads;
  const int blocks = (int)(want < (size_t)kMaxBlocks ? want : (size_t)kMaxBlocks);
  double *d_x = nullptr, *d_partial = nullptr;
  cudaMalloc(&d_x, n * sizeof(double));
  cudaMalloc(&d_partial, (blocks + 1) * sizeof(double));
  cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  weighted_partials<<<blocks, kThreads>>>(d_x, n, d_partial);
  final_sum<<<1, kThreads>>>(d_partial, blocks, d_partial + blocks);
  double result = 0.0;
  cudaMemcpy(&result, d_partial + blocks, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_partial);
  return result;
}

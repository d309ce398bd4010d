#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
#include <vector>

// Arg-min reduction of |x[i] - pi| with ties to the lower index, in two
// deterministic passes. Pass 1: grid-stride loop per thread, warp-shuffle
// tree, shared-memory combine of the warps, one (distance, index) candidate
// per block. Pass 2: one block reduces the candidates the same way.

namespace {
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
}

struct Cand {
  double d;
  size_t i;
};

__device__ __forceinline__ Cand better(Cand a, Cand b) {
  return (b.d < a.d || (b.d == a.d && b.i < a.i)) ? b : a;
}

// Valid in thread 0.
__device__ Cand block_argmin(Cand c) {
  __shared__ Cand s_warp[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 16; off > 0; off >>= 1) {
    Cand o{__shfl_down_sync(0xffffffffu, c.d, off), __shfl_down_sync(0xffffffffu, c.i, off)};
    c = better(c, o);
  }
  if (lane == 0) s_warp[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : Cand{INFINITY, ~(size_t)0};
    for (int off = 16; off > 0; off >>= 1) {
      Cand o{__shfl_down_sync(0xffffffffu, c.d, off), __shfl_down_sync(0xffffffffu, c.i, off)};
      c = better(c, o);
    }
  }
  return c;
}

__global__ void __launch_bounds__(kThreads)
closest_partials(const double* __restrict__ x, size_t n, Cand* __restrict__ partial) {
  Cand c{INFINITY, ~(size_t)0};
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    double d = fabs(x[i] - M_PI);
    if (d < c.d) c = Cand{d, i};  // i increases, so ties keep the earlier index
  }
  c = block_argmin(c);
  if (threadIdx.x == 0) partial[blockIdx.x] = c;
}

__global__ void __launch_bounds__(kThreads)
closest_final(const Cand* __restrict__ partial, int count, size_t* __restrict__ result) {
  Cand c{INFINITY, ~(size_t)0};
  for (int i = threadIdx.x; i < count; i += blockDim.x) c = better(c, partial[i]);
  c = block_argmin(c);
  if (threadIdx.x == 0) *result = c.i;
}

size_t findClosestToPi(std::vector<double> const& x) {
  const size_t n = x.size();
  if (n == 0) return 0;
  size_t want = (n + kThreads - 1) / kThreads;
  const int blocks = (int)(want < (size_t)kMaxBlocks ? want : (size_t)kMaxBlocks);
  double* d_x = nullptr;
  Cand* d_partial = nullptr;
  size_t* d_result = nullptr;
  cudaMalloc(&d_x, n * sizeof(double));
  cudaMalloc(&d_partial, blocks * sizeof(Cand));
  cudaMalloc(&d_result, sizeof(size_t));
  cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  closest_partials<<<blocks, kThreads>>>(d_x, n, d_partial);
  closest_final<<<1, kThreads>>>(d_partial, blocks, d_result);
  size_t result = 0;
  cudaMemcpy(&result, d_result, sizeof(size_t), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_partial);
  cudaFree(d_result);
  return result;
}

#include <cuda_runtime.h>
#include <climits>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;

// (value, index) candidate; the identity loses against every real element.
struct Best {
  double v;
  int i;
};

__host__ __device__ inline Best pick(Best a, Best b) {
  if (b.v > a.v || (b.v == a.v && b.i < a.i)) return b;
  return a;
}

constexpr int kMaxGrid = 1024;

__device__ __forceinline__ Best warp_pick(Best b) {
  for (int off = 16; off > 0; off >>= 1) {
    Best o;
    o.v = __shfl_down_sync(0xffffffffu, b.v, off);
    o.i = __shfl_down_sync(0xffffffffu, b.i, off);
    b = pick(b, o);
  }
  return b;
}

// Block-wide argmax of one candidate per thread; valid in thread 0.
__device__ __forceinline__ Best block_pick(Best b) {
  __shared__ Best warp_best[kBlock / 32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  b = warp_pick(b);
  if (lane == 0) warp_best[warp] = b;
  __syncthreads();
  if (warp == 0) {
    b = (lane < kBlock / 32) ? warp_best[lane] : Best{-INFINITY, INT_MAX};
    b = warp_pick(b);
  }
  return b;
}

// double2 loads: pair p holds elements 2p and 2p+1, examined in index order;
// global thread 0 also examines the last element when n is odd.
__global__ void block_argmax_kernel(int n, const double* __restrict__ x, Best* partial) {
  Best mine{-INFINITY, INT_MAX};
  int gtid = blockIdx.x * kBlock + threadIdx.x;
  int n2 = n >> 1;
  const double2* x2 = reinterpret_cast<const double2*>(x);
  for (int p = gtid; p < n2; p += gridDim.x * kBlock) {
    double2 v = x2[p];
    if (v.x > mine.v || mine.i == INT_MAX) mine = Best{v.x, 2 * p};
    if (v.y > mine.v) mine = Best{v.y, 2 * p + 1};
  }
  if (gtid == 0 && (n & 1)) mine = pick(mine, Best{x[n - 1], n - 1});
  mine = block_pick(mine);
  if (threadIdx.x == 0) partial[blockIdx.x] = mine;
}

// One block reduces the per-block winners on the device and stores only
// the winning index.
__global__ void finish_argmax_kernel(const Best* __restrict__ partial, int count, int* result) {
  Best b{-INFINITY, INT_MAX};
  for (int k = threadIdx.x; k < count; k += kBlock) b = pick(b, partial[k]);
  b = block_pick(b);
  if (threadIdx.x == 0) *result = b.i;
}

int indexOfMaximum(int n, const double* x) {
  if (n <= 0) return 0;
  int work = (n >> 1) > 0 ? (n >> 1) : 1;
  int grid = (work + kBlock - 1) / kBlock;
  if (grid > kMaxGrid) grid = kMaxGrid;
  double* dx = nullptr;
  Best* dpart = nullptr;
  int* dres = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(double));
  cudaMalloc(&dpart, static_cast<size_t>(grid) * sizeof(Best));
  cudaMalloc(&dres, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(double), cudaMemcpyHostToDevice);
  block_argmax_kernel<<<grid, kBlock>>>(n, dx, dpart);
  finish_argmax_kernel<<<1, kBlock>>>(dpart, grid, dres);
  int result = 0;
  cudaMemcpy(&result, dres, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpart);
  cudaFree(dres);
  return result;
}

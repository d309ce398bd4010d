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

// Warp-shuffle reduction of (value, index) pairs: both fields are shuffled
// and combined with the same tie rule; only the 8 warp winners meet in
// shared memory.
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

__global__ void block_argmax_kernel(int n, const double* __restrict__ x, Best* partial) {
  Best mine{-INFINITY, INT_MAX};
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) {
    double v = x[i];
    if (v > mine.v || mine.i == INT_MAX) mine = Best{v, i};
  }
  mine = block_pick(mine);
  if (threadIdx.x == 0) partial[blockIdx.x] = mine;
}

int indexOfMaximum(int n, const double* x) {
  if (n <= 0) return 0;
  int grid = (n + kBlock - 1) / kBlock;
  if (grid > kMaxGrid) grid = kMaxGrid;
  double* dx = nullptr;
  Best* dpart = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(double));
  cudaMalloc(&dpart, static_cast<size_t>(grid) * sizeof(Best));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(double), cudaMemcpyHostToDevice);
  block_argmax_kernel<<<grid, kBlock>>>(n, dx, dpart);
  std::vector<Best> part(grid);
  cudaMemcpy(part.data(), dpart, static_cast<size_t>(grid) * sizeof(Best), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpart);
  Best best = part[0];
  for (int b = 1; b < grid; ++b) best = pick(best, part[b]);
  return best.i;
}

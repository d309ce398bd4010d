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

// Bounded grid: each thread scans a grid-stride slice (increasing indices,
// so a strict > keeps the first maximum) before the shared-memory tree.
__global__ void block_argmax_kernel(int n, const double* __restrict__ x, Best* partial) {
  __shared__ double sv[kBlock];
  __shared__ int si[kBlock];
  int tid = threadIdx.x;
  Best mine{-INFINITY, INT_MAX};
  for (int i = blockIdx.x * kBlock + tid; i < n; i += gridDim.x * kBlock) {
    double v = x[i];
    if (v > mine.v || mine.i == INT_MAX) mine = Best{v, i};
  }
  sv[tid] = mine.v;
  si[tid] = mine.i;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) {
      Best r = pick(Best{sv[tid], si[tid]}, Best{sv[tid + h], si[tid + h]});
      sv[tid] = r.v;
      si[tid] = r.i;
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = Best{sv[0], si[0]};
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

#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

// Both passes use a bounded grid: each thread folds a grid-stride slice into
// a register before the shared-memory tree.
__global__ void block_max_kernel(const double* __restrict__ x, size_t n, double* partial) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  double v = -INFINITY;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) v = fmax(v, x[i]);
  s[tid] = v;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] = fmax(s[tid], s[tid + h]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

__global__ void block_sumexp_kernel(const double* __restrict__ x, size_t n, double m, double* partial) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  double v = 0.0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) v += exp(x[i] - m);
  s[tid] = v;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] += s[tid + h];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

double logSumExp(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return -INFINITY;
  size_t want = (n + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
  double *dx = nullptr, *dpart = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  std::vector<double> part(grid);

  block_max_kernel<<<grid, kBlock>>>(dx, n, dpart);
  cudaMemcpy(part.data(), dpart, grid * sizeof(double), cudaMemcpyDeviceToHost);
  double m = part[0];
  for (int b = 1; b < grid; ++b) m = part[b] > m ? part[b] : m;

  block_sumexp_kernel<<<grid, kBlock>>>(dx, n, m, dpart);
  cudaMemcpy(part.data(), dpart, grid * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0.0;
  for (int b = 0; b < grid; ++b) s += part[b];

  cudaFree(dx);
  cudaFree(dpart);
  return m + std::log(s);
}

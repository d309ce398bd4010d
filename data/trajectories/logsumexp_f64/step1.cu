#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;

// Pass 1: per-block maxima (shared-memory tree).
__global__ void block_max_kernel(const double* x, size_t n, double* partial) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid;
  s[tid] = (i < n) ? x[i] : -INFINITY;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] = fmax(s[tid], s[tid + h]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

// Pass 2: per-block sums of exp(x - m).
__global__ void block_sumexp_kernel(const double* x, size_t n, double m, double* partial) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid;
  s[tid] = (i < n) ? exp(x[i] - m) : 0.0;
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
  int grid = static_cast<int>((n + kBlock - 1) / kBlock);
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

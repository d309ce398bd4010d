#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;

// Each block squares 256 elements and tree-reduces them in shared memory; the
// per-block partial sums are copied back and finished on the host.
__global__ void sumsq_block_kernel(const double* v, size_t n, double* partials) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid;
  double t = (i < n) ? v[i] : 0.0;
  s[tid] = t * t;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
}

double euclideanNorm(std::vector<double> const& v) {
  size_t n = v.size();
  if (n == 0) return 0.0;
  int grid = static_cast<int>((n + kBlock - 1) / kBlock);
  double *dv = nullptr, *dpart = nullptr;
  cudaMalloc(&dv, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMemcpy(dv, v.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  sumsq_block_kernel<<<grid, kBlock>>>(dv, n, dpart);
  std::vector<double> part(grid);
  cudaMemcpy(part.data(), dpart, grid * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dpart);
  double sum = 0.0;
  for (int b = 0; b < grid; ++b) sum += part[b];
  return std::sqrt(sum);
}

#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;

__device__ __forceinline__ double warp_sum(double x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
  return x;
}

// Same block partials, reduced with warp shuffles: warps reduce in registers,
// warp 0 combines the 8 warp sums after a single barrier.
__global__ void sumsq_block_kernel(const double* __restrict__ v, size_t n, double* __restrict__ partials) {
  __shared__ double warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid;
  double t = (i < n) ? v[i] : 0.0;
  double s = warp_sum(t * t);
  int lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < kBlock / 32) ? warp_sums[lane] : 0.0;
    s = warp_sum(s);
    if (lane == 0) partials[blockIdx.x] = s;
  }
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

#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

__device__ __forceinline__ double warp_sum(double x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
  return x;
}

// A bounded grid: each thread accumulates a grid-stride slice in a register
// before the shuffle reduction, so at most 1024 partials come back.
__global__ void sumsq_block_kernel(const double* __restrict__ v, size_t n, double* __restrict__ partials) {
  __shared__ double warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  double s = 0.0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) {
    double t = v[i];
    s = fma(t, t, s);
  }
  s = warp_sum(s);
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
  size_t want = (n + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
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

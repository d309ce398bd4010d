#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

__device__ __forceinline__ double warp_sum(double x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
  return x;
}

// Block-level sum of a register value (all threads of the block must call it).
// The result is valid in thread 0.
__device__ __forceinline__ double block_sum(double s, double* warp_sums) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = warp_sum(s);
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  s = 0.0;
  if (warp == 0) {
    s = (lane < kBlock / 32) ? warp_sums[lane] : 0.0;
    s = warp_sum(s);
  }
  return s;
}

// Single kernel: every block publishes its partial, and the last block to
// finish (detected with a fenced atomic ticket) sums all partials and writes
// the square root. Only one double travels back to the host.
__global__ void norm_fused_kernel(const double* __restrict__ v, size_t n, double* partials,
                                  unsigned int* ticket, double* result) {
  __shared__ double warp_sums[kBlock / 32];
  __shared__ bool is_last;
  int tid = threadIdx.x;
  double s = 0.0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) {
    double t = v[i];
    s = fma(t, t, s);
  }
  s = block_sum(s, warp_sums);
  if (tid == 0) {
    partials[blockIdx.x] = s;
    __threadfence();  // make the partial visible device-wide before taking a ticket
    unsigned int done = atomicAdd(ticket, 1u);
    is_last = (done == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last) {
    __syncthreads();  // warp_sums is reused below
    const volatile double* vp = partials;  // bypass L1: read what other blocks wrote
    double t = 0.0;
    for (int b = tid; b < static_cast<int>(gridDim.x); b += kBlock) t += vp[b];
    t = block_sum(t, warp_sums);
    if (tid == 0) *result = sqrt(t);
  }
}

double euclideanNorm(std::vector<double> const& v) {
  size_t n = v.size();
  if (n == 0) return 0.0;
  size_t want = (n + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
  double *dv = nullptr, *dpart = nullptr, *dres = nullptr;
  unsigned int* dticket = nullptr;
  cudaMalloc(&dv, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMalloc(&dres, sizeof(double));
  cudaMalloc(&dticket, sizeof(unsigned int));
  cudaMemcpy(dv, v.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dticket, 0, sizeof(unsigned int));
  norm_fused_kernel<<<grid, kBlock>>>(dv, n, dpart, dticket, dres);
  double result = 0.0;
  cudaMemcpy(&result, dres, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dpart);
  cudaFree(dres);
  cudaFree(dticket);
  return result;
}

#include <cuda_runtime.h>
#include <vector>

// Pass 1: each thread multiplies the ratios x[2k] / x[2k+1] of a grid-stride set of pairs
// (one 16-byte load per pair), folds in a trailing unpaired element, then the block reduces with
// warp shuffles and writes one partial. Pass 2: one block multiplies the partials.
__device__ __forceinline__ double block_product(double v, double* warp_vals) {
  for (int off = 16; off > 0; off >>= 1) v *= __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = 1.0;
  if (warp == 0) {
    v = (lane < (int)(blockDim.x >> 5)) ? warp_vals[lane] : 1.0;
    for (int off = 16; off > 0; off >>= 1) v *= __shfl_down_sync(0xffffffffu, v, off);
  }
  return v;  // valid in thread 0
}

__global__ void pair_ratio_product(const double* __restrict__ x, size_t n, double* partials) {
  __shared__ double warp_vals[32];
  double p = 1.0;
  size_t npairs = n / 2;
  const double2* pairs = reinterpret_cast<const double2*>(x);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (size_t k = t; k < npairs; k += stride) {
    double2 q = pairs[k];
    p *= q.x / q.y;
  }
  if ((n & 1) && t == 0) p *= x[n - 1];
  p = block_product(p, warp_vals);
  if (threadIdx.x == 0) partials[blockIdx.x] = p;
}

__global__ void final_product(const double* __restrict__ partials, int count, double* out) {
  __shared__ double warp_vals[32];
  double p = 1.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) p *= partials[i];
  p = block_product(p, warp_vals);
  if (threadIdx.x == 0) *out = p;
}

double productWithInverses(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 1.0;
  const int block = 256;
  size_t want = (n / 2 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  double *dx = nullptr, *dpart = nullptr, *dout = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(double));
  cudaMalloc(&dout, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  pair_ratio_product<<<grid, block>>>(dx, n, dpart);
  final_product<<<1, 1024>>>(dpart, grid, dout);
  double result = 1.0;
  cudaMemcpy(&result, dout, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpart);
  cudaFree(dout);
  return result;
}

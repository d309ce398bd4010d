#include <cuda_runtime.h>
#include <vector>

// Each block reduces a grid-stride slice with warp shuffles, then one atomic
// per block adds the partial sum.
__global__ void sum_squares_kernel(const double* __restrict__ x, size_t n, double* out) {
  double v = 0.0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    double t = x[i];
    v += t * t;
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  __shared__ double warp_sums[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < (int)(blockDim.x >> 5)) ? warp_sums[lane] : 0.0;
    #pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) atomicAdd(out, v);
  }
}

double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  double *dx = nullptr, *dsum = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dsum, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  int block = 256;
  size_t want = (n + block - 1) / block;
  int grid = (int)(want < 1024 ? want : 1024);
  sum_squares_kernel<<<grid, block>>>(dx, n, dsum);
  double result = 0.0;
  cudaMemcpy(&result, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dsum);
  return result;
}

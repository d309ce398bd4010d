#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Block sum: shuffle within each warp, the 8 warp sums meet in shared memory
// and warp 0 shuffles them; one barrier. The result is valid in thread 0.
__device__ __forceinline__ double block_sum(double v, double* warp_tot) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) warp_tot[warp] = v;
  __syncthreads();
  double t = 0.0;
  if (warp == 0) t = warp_sum(lane < kWarps ? warp_tot[lane] : 0.0);
  return t;
}

__global__ void sum_kernel(int n, const double* x, double* sum) {
  __shared__ double wt[kWarps];
  int i = blockIdx.x * kBlock + threadIdx.x;
  double t = block_sum(i < n ? x[i] : 0.0, wt);
  if (threadIdx.x == 0) atomicAdd(sum, t);
}

__global__ void moments_kernel(int n, const double* x, double mean, double* acc) {
  __shared__ double wt2[kWarps], wt4[kWarps];
  int i = blockIdx.x * kBlock + threadIdx.x;
  double d2 = 0.0;
  if (i < n) {
    double d = x[i] - mean;
    d2 = d * d;
  }
  double t2 = block_sum(d2, wt2);
  double t4 = block_sum(d2 * d2, wt4);
  if (threadIdx.x == 0) {
    atomicAdd(&acc[0], t2);
    atomicAdd(&acc[1], t4);
  }
}

double sampleKurtosis(int n, const double* x) {
  if (n <= 0) return 0.0;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *dx = nullptr, *dsum = nullptr, *dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dacc, 2 * sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dacc, 0, 2 * sizeof(double));
  int blocks = (n + kBlock - 1) / kBlock;
  sum_kernel<<<blocks, kBlock>>>(n, dx, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  double mean = sum / n;
  moments_kernel<<<blocks, kBlock>>>(n, dx, mean, dacc);
  double acc[2] = {0.0, 0.0};
  cudaMemcpy(acc, dacc, 2 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dsum);
  cudaFree(dacc);
  double m2 = acc[0] / n;
  double m4 = acc[1] / n;
  if (m2 <= 0.0) return 0.0;
  return m4 / (m2 * m2);
}

#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// The shared-memory tree is replaced by warp shuffles: 8 warp sums meet in
// shared memory after one barrier and warp 0 finishes them.
__global__ void mae_kernel(int n, const double* __restrict__ pred, const double* __restrict__ target,
                           double* total) {
  __shared__ double warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  double acc = 0.0;
  int stride = gridDim.x * kBlock;
  for (int i = blockIdx.x * kBlock + tid; i < n; i += stride) acc += fabs(pred[i] - target[i]);
  acc = warp_sum(acc);
  int lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = (lane < kBlock / 32) ? warp_sums[lane] : 0.0;
    acc = warp_sum(acc);
    if (lane == 0) atomicAdd(total, acc);
  }
}

double meanAbsoluteError(int n, const double* pred, const double* target) {
  if (n <= 0) return 0.0;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *dp = nullptr, *dt = nullptr, *dsum = nullptr;
  cudaMalloc(&dp, bytes);
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dsum, sizeof(double));
  cudaMemcpy(dp, pred, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, target, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  int grid = (n + kBlock - 1) / kBlock;
  if (grid > 1024) grid = 1024;
  mae_kernel<<<grid, kBlock>>>(n, dp, dt, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dsum);
  return sum / n;
}

#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

__device__ __forceinline__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Grid-stride accumulation, then a two-level shuffle reduction: each warp
// reduces in registers, lane 0 of each warp parks its sum in shared memory,
// and warp 0 reduces the 8 warp sums. One __syncthreads instead of eight.
__global__ void dot_shuffle_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                                   double* acc) {
  __shared__ float warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * kBlock + tid; i < n; i += gridDim.x * kBlock) sum = fmaf(x[i], y[i], sum);
  sum = warp_sum(sum);
  int lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = (lane < kBlock / 32) ? warp_sums[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(acc, static_cast<double>(sum));
  }
}

float innerProduct(int n, const float* x, const float* y) {
  if (n <= 0) return 0.0f;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  double* dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dacc, sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dacc, 0, sizeof(double));
  int grid = (n + kBlock - 1) / kBlock;
  if (grid > kMaxGrid) grid = kMaxGrid;
  dot_shuffle_kernel<<<grid, kBlock>>>(n, dx, dy, dacc);
  double result = 0.0;
  cudaMemcpy(&result, dacc, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dacc);
  return static_cast<float>(result);
}

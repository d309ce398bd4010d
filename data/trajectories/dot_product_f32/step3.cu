#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

// A bounded grid: every thread first accumulates its grid-stride share of the
// products in a register, then the block tree-reduces those sums.
__global__ void dot_block_kernel(int n, const float* __restrict__ x, const float* __restrict__ y,
                                 double* acc) {
  __shared__ float partial[kBlock];
  int tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * kBlock + tid; i < n; i += gridDim.x * kBlock) sum = fmaf(x[i], y[i], sum);
  partial[tid] = sum;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(acc, static_cast<double>(partial[0]));
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
  dot_block_kernel<<<grid, kBlock>>>(n, dx, dy, dacc);
  double result = 0.0;
  cudaMemcpy(&result, dacc, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dacc);
  return static_cast<float>(result);
}

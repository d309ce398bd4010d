#include <cuda_runtime.h>

constexpr int kBlock = 256;

__device__ __forceinline__ int leading_digit(int v) {
  while (v >= 10) v /= 10;
  return v;
}

// Each block counts into a private 9-bin histogram in shared memory and adds
// its nonzero bins to the global counts once.
__global__ void digit_block_kernel(int n, const int* x, int* counts) {
  __shared__ int bins[9];
  if (threadIdx.x < 9) bins[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    if (v > 0) atomicAdd(&bins[leading_digit(v) - 1], 1);
  }
  __syncthreads();
  if (threadIdx.x < 9 && bins[threadIdx.x] != 0) atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);
}

void leadingDigitCounts(int n, const int* x, int* counts) {
  int* dcounts = nullptr;
  cudaMalloc(&dcounts, 9 * sizeof(int));
  cudaMemset(dcounts, 0, 9 * sizeof(int));
  if (n > 0) {
    int* dx = nullptr;
    cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
    cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
    digit_block_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, dx, dcounts);
    cudaFree(dx);
  }
  cudaMemcpy(counts, dcounts, 9 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dcounts);
}

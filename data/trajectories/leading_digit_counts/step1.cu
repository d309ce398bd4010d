#include <cuda_runtime.h>

constexpr int kBlock = 256;

__device__ __forceinline__ int leading_digit(int v) {
  while (v >= 10) v /= 10;
  return v;
}

// One thread per element; the element's bin is incremented with a global atomic.
__global__ void digit_atomic_kernel(int n, const int* x, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  if (v <= 0) return;
  atomicAdd(&counts[leading_digit(v) - 1], 1);
}

void leadingDigitCounts(int n, const int* x, int* counts) {
  int* dcounts = nullptr;
  cudaMalloc(&dcounts, 9 * sizeof(int));
  cudaMemset(dcounts, 0, 9 * sizeof(int));
  if (n > 0) {
    int* dx = nullptr;
    cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
    cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
    digit_atomic_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, dx, dcounts);
    cudaFree(dx);
  }
  cudaMemcpy(counts, dcounts, 9 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dcounts);
}

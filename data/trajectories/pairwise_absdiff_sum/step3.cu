#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

__device__ __forceinline__ int absdiff(int a, int b) {
  int d = a - b;
  return d < 0 ? -d : d;
}

// Block per row with the shared-memory tree; thread 0 adds the row total to a
// single device accumulator atomically, so no per-row array is needed.
__global__ void row_kernel(int n, const int* x, unsigned long long* total) {
  int i = blockIdx.x;
  int tid = threadIdx.x;
  int xi = x[i];
  long long v = 0;
  for (int j = i + 1 + tid; j < n; j += kBlock) v += absdiff(xi, x[j]);
  __shared__ long long s[kBlock];
  s[tid] = v;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, static_cast<unsigned long long>(s[0]));
}

int64_t pairwiseAbsDiffSum(int n, const int* x) {
  if (n < 2) return 0;
  int* dx = nullptr;
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  row_kernel<<<n, kBlock>>>(n, dx, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

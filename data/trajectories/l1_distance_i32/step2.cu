#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// One element per thread, but the 32 values of a warp are first summed in
// registers with shuffles; only lane 0 issues the atomic. Threads past n keep
// participating in the shuffles with a zero.
__global__ void l1_warp_kernel(int n, const int* a, const int* b, unsigned long long* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long v = 0;
  if (i < n) {
    int d = a[i] - b[i];
    v = d < 0 ? -d : d;
  }
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0 && v != 0) atomicAdd(total, static_cast<unsigned long long>(v));
}

int64_t l1Distance(int n, const int* a, const int* b) {
  if (n <= 0) return 0;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *da = nullptr, *db = nullptr;
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  int blocks = (n + kBlock - 1) / kBlock;
  l1_warp_kernel<<<blocks, kBlock>>>(n, da, db, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

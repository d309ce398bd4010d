#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

// One thread per element: each adds its |a[i] - b[i]| straight into the single
// 64-bit accumulator with an atomic.
__global__ void l1_atomic_kernel(int n, const int* a, const int* b, unsigned long long* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int d = a[i] - b[i];
  atomicAdd(total, static_cast<unsigned long long>(d < 0 ? -d : d));
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
  l1_atomic_kernel<<<blocks, kBlock>>>(n, da, db, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

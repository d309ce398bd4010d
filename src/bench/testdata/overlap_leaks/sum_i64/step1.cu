#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// One thread per element, each adding into one 64-bit total. Two's-complement
// addition makes the unsigned atomic correct for signed values.
__global__ void sum_atomic_kernel(const long long* v, size_t n, unsigned long long* total) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(v[i]));
}

int64_t totalInt64(std::vector<int64_t> const& values) {
  size_t n = values.size();
  if (n == 0) return 0;
  long long* dv = nullptr;
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&dv, n * sizeof(long long));
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(dv, values.data(), n * sizeof(long long), cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  int block = 256;
  unsigned int grid = static_cast<unsigned int>((n + block - 1) / block);
  sum_atomic_kernel<<<grid, block>>>(dv, n, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

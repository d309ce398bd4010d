#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// Bounded grid: threads sum a grid-stride slice in a register and issue one
// atomic each.
__global__ void sum_stride_kernel(const long long* __restrict__ v, size_t n, unsigned long long* total) {
  long long s = 0;
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) s += v[i];
  atomicAdd(total, static_cast<unsigned long long>(s));
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
  size_t want = (n + block - 1) / block;
  unsigned int grid = static_cast<unsigned int>(want < 1024 ? want : 1024);
  sum_stride_kernel<<<grid, block>>>(dv, n, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

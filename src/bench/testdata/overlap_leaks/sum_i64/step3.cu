#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

constexpr int kBlock = 256;

// Register sums are combined per block in a shared-memory halving tree; one
// atomic per block.
__global__ void sum_block_kernel(const long long* __restrict__ v, size_t n, unsigned long long* total) {
  __shared__ long long s[kBlock];
  int tid = threadIdx.x;
  long long acc = 0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) acc += v[i];
  s[tid] = acc;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] += s[tid + h];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, static_cast<unsigned long long>(s[0]));
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
  size_t want = (n + kBlock - 1) / kBlock;
  unsigned int grid = static_cast<unsigned int>(want < 1024 ? want : 1024);
  sum_block_kernel<<<grid, kBlock>>>(dv, n, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}

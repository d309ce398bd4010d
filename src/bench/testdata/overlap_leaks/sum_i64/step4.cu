#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

constexpr int kBlock = 256;

__device__ __forceinline__ long long warp_sum(long long x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffffu, x, off);
  return x;
}

// Warp shuffles replace the shared-memory tree; one barrier remains to hand
// the 8 warp sums to warp 0.
__global__ void sum_block_kernel(const long long* __restrict__ v, size_t n, unsigned long long* total) {
  __shared__ long long warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  long long acc = 0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) acc += v[i];
  acc = warp_sum(acc);
  int lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = (lane < kBlock / 32) ? warp_sums[lane] : 0;
    acc = warp_sum(acc);
    if (lane == 0) atomicAdd(total, static_cast<unsigned long long>(acc));
  }
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

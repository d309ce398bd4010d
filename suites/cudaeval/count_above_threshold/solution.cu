#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Step 1 (thread_mapping): threads test elements in parallel (grid-stride, so a
// capped grid covers any length).
// Step 2 (atomic_aggregation): instead of one atomicAdd per matching element,
// each thread counts privately, the warp sums its 32 counts with shuffles, and
// only lane 0 of each warp issues a single atomicAdd on the global counter.
__global__ void count_above_kernel(const float* __restrict__ x, size_t n, float threshold,
                                   unsigned int* __restrict__ count) {
  unsigned int local = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    local += (x[i] > threshold) ? 1u : 0u;
  }
  for (int off = 16; off > 0; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0 && local != 0) atomicAdd(count, local);
}

int countAboveThreshold(const std::vector<float>& x, float threshold) {
  size_t n = x.size();
  if (n == 0) return 0;
  float* dx = nullptr;
  unsigned int* dcount = nullptr;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dcount, sizeof(unsigned int));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(unsigned int));
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;  // a multiple of 32: every warp is full
  size_t needed = (n + block - 1) / block;
  size_t cap = (size_t)sms * 8;
  int grid = (int)(needed < cap ? needed : cap);
  count_above_kernel<<<grid, block>>>(dx, n, threshold, dcount);
  unsigned int result = 0;
  cudaMemcpy(&result, dcount, sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return (int)result;
}

// Race on shared memory: a per-block histogram whose increments are plain
// read-modify-writes; the flush to global memory is atomic.
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>
__global__ void hist(const uint8_t* data, size_t n, int* counts) {
  __shared__ int local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    local[data[i]]++;
  __syncthreads();
  if (local[threadIdx.x]) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}
void histogramU8(const std::vector<uint8_t>& data, std::vector<int>& counts) {
  size_t n = data.size();
  int* dc;
  cudaMalloc(&dc, 256 * sizeof(int));
  cudaMemset(dc, 0, 256 * sizeof(int));
  uint8_t* dd = nullptr;
  if (n > 0) {
    cudaMalloc(&dd, n);
    cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice);
    hist<<<8, 256>>>(dd, n, dc);
  }
  cudaMemcpy(counts.data(), dc, 256 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dd);
  cudaFree(dc);
}

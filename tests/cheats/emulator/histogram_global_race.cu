// Race on global memory: every thread increments its bin without an atomic.
// Threads of a block that run one after another never lose an update, so a
// sequential emulator would call this correct.
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>
__global__ void hist(const uint8_t* data, size_t n, int* counts) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[data[i]] += 1;
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
    hist<<<(unsigned)((n + 255) / 256), 256>>>(dd, n, dc);
  }
  cudaMemcpy(counts.data(), dc, 256 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dd);
  cudaFree(dc);
}

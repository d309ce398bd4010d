#include <cuda_runtime.h>
#include <cstdint>

__global__ void bswap_kernel(int n, const uint32_t* in, uint32_t* out) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint32_t w = in[i];
    out[i] = ((w >> 24) & 0x000000FFu) | ((w >> 8) & 0x0000FF00u) |
             ((w << 8) & 0x00FF0000u) | ((w << 24) & 0xFF000000u);
  }
}

void swapEndianness32(int n, const uint32_t* in, uint32_t* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(uint32_t);
  uint32_t *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 2048) grid = 2048;
  bswap_kernel<<<grid, block>>>(n, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}

#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ uint32_t bswap_shift(uint32_t w) {
  return ((w >> 24) & 0x000000FFu) | ((w >> 8) & 0x0000FF00u) |
         ((w << 8) & 0x00FF0000u) | ((w << 24) & 0xFF000000u);
}

// Grid-stride loop over uint4 groups; the n % 4 leftover words are handled by
// the first threads of the grid.
__global__ void bswap_kernel_vec4(int n, const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  int n4 = n >> 2;
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  const uint4* in4 = reinterpret_cast<const uint4*>(in);
  uint4* out4 = reinterpret_cast<uint4*>(out);
  for (int i = tid; i < n4; i += stride) {
    uint4 w = in4[i];
    out4[i] = make_uint4(bswap_shift(w.x), bswap_shift(w.y), bswap_shift(w.z), bswap_shift(w.w));
  }
  if (tid < (n & 3)) {
    int t = (n4 << 2) + tid;
    out[t] = bswap_shift(in[t]);
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
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  if (grid > 2048) grid = 2048;
  bswap_kernel_vec4<<<grid, block>>>(n, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}

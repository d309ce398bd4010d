#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// The bools are packed 32 to a word on the host (std::vector<bool> has no contiguous bool
// storage to copy), so the device reads n/8 bytes. XOR of all words keeps, for every bit
// position, the parity of that position; the parity of the whole vector is the parity of the
// popcount of that word. Each block folds a grid-stride slice with warp shuffles and one
// atomicXor per block combines the blocks.
__global__ void xor_words_kernel(const uint32_t* __restrict__ words, size_t nwords,
                                 unsigned int* out) {
  uint32_t acc = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t nvec = nwords / 4;
  const uint4* w4 = reinterpret_cast<const uint4*>(words);
  for (size_t k = i; k < nvec; k += stride) {
    uint4 v = w4[k];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  for (size_t k = nvec * 4 + i; k < nwords; k += stride) acc ^= words[k];
  for (int off = 16; off > 0; off >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, off);
  __shared__ uint32_t warp_acc[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_acc[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = (lane < (int)(blockDim.x >> 5)) ? warp_acc[lane] : 0u;
    for (int off = 16; off > 0; off >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0 && (__popc(acc) & 1)) atomicXor(out, 1u);
  }
}

bool reduceLogicalXOR(std::vector<bool> const& x) {
  size_t n = x.size();
  if (n == 0) return false;
  size_t nwords = (n + 31) / 32;
  std::vector<uint32_t> packed(nwords, 0u);
  for (size_t w = 0; w < nwords; ++w) {
    size_t base = w * 32;
    size_t end = base + 32 < n ? base + 32 : n;
    uint32_t bits = 0;
    for (size_t i = base; i < end; ++i) bits |= static_cast<uint32_t>(x[i]) << (i - base);
    packed[w] = bits;
  }
  uint32_t* dwords = nullptr;
  unsigned int* dout = nullptr;
  cudaMalloc(&dwords, nwords * sizeof(uint32_t));
  cudaMalloc(&dout, sizeof(unsigned int));
  cudaMemcpy(dwords, packed.data(), nwords * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(unsigned int));
  const int block = 256;
  size_t want = (nwords / 4 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  xor_words_kernel<<<grid, block>>>(dwords, nwords, dout);
  unsigned int result = 0;
  cudaMemcpy(&result, dout, sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaFree(dwords);
  cudaFree(dout);
  return result != 0;
}

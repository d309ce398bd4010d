#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): one thread per output word (16 bases).
// Step 2 (vectorized_memory_access): a full word's 16 characters start at
// byte 16 * w, a 16-byte boundary of the device buffer, so they arrive in one
// uint4 load; the codes are extracted from its four 32-bit registers. Only
// the last, partial word reads its characters one by one.
__device__ __forceinline__ uint32_t dna_code(uint32_t c) {
  c |= 0x20u;  // lower case
  return c == 'c' ? 1u : c == 'g' ? 2u : c == 't' ? 3u : 0u;
}

__device__ __forceinline__ uint32_t dna_pack4(uint32_t chars, int shift) {
  return (dna_code(chars & 0xffu) << shift) | (dna_code((chars >> 8) & 0xffu) << (shift + 2)) |
         (dna_code((chars >> 16) & 0xffu) << (shift + 4)) | (dna_code(chars >> 24) << (shift + 6));
}

__global__ void pack_2bit_kernel(const char* __restrict__ seq, int n, uint32_t* __restrict__ packed) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int full = n / 16;
  int words = (n + 15) / 16;
  if (w >= words) return;
  uint32_t word = 0;
  if (w < full) {
    uint4 v = reinterpret_cast<const uint4*>(seq)[w];
    word = dna_pack4(v.x, 0) | dna_pack4(v.y, 8) | dna_pack4(v.z, 16) | dna_pack4(v.w, 24);
  } else {
    for (int j = 0; w * 16 + j < n; ++j) {
      word |= dna_code((unsigned char)seq[w * 16 + j]) << (2 * j);
    }
  }
  packed[w] = word;
}

void packDna2bit(const char* seq, int n, uint32_t* packed) {
  if (n <= 0) return;
  int words = (n + 15) / 16;
  char* dseq = nullptr;
  uint32_t* dpacked = nullptr;
  cudaMalloc(&dseq, (size_t)n);
  cudaMalloc(&dpacked, (size_t)words * sizeof(uint32_t));
  cudaMemcpy(dseq, seq, (size_t)n, cudaMemcpyHostToDevice);
  const int block = 256;
  pack_2bit_kernel<<<(words + block - 1) / block, block>>>(dseq, n, dpacked);
  cudaMemcpy(packed, dpacked, (size_t)words * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(dseq);
  cudaFree(dpacked);
}

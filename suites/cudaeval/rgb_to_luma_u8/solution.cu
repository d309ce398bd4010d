#include <cuda_runtime.h>
#include <cstdint>

struct Rgb8 {
  uint8_t r, g, b;
};

__device__ __forceinline__ unsigned int luma_of(unsigned int r, unsigned int g, unsigned int b) {
  return (77u * r + 150u * g + 29u * b + 128u) >> 8;
}

// Step 1 (thread_mapping): pixels are independent.
// Step 2 (vectorized_memory_access): 3-byte pixels make byte-wise loads
// wasteful, so each thread handles 4 pixels: it reads their 12 bytes as three
// aligned 32-bit words and writes the 4 luma bytes as one 32-bit word. The
// group k starts at byte 12k (4-byte aligned) in the input and at byte 4k in
// the output. A second tiny kernel handles the npixels % 4 tail.
__global__ void rgb_to_luma_x4(int groups, const uint32_t* __restrict__ rgb_words, uint32_t* __restrict__ luma_words) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups) return;
  uint32_t w0 = rgb_words[3 * g];      // r0 g0 b0 r1 (little-endian byte order)
  uint32_t w1 = rgb_words[3 * g + 1];  // g1 b1 r2 g2
  uint32_t w2 = rgb_words[3 * g + 2];  // b2 r3 g3 b3
  unsigned int y0 = luma_of(w0 & 0xffu, (w0 >> 8) & 0xffu, (w0 >> 16) & 0xffu);
  unsigned int y1 = luma_of(w0 >> 24, w1 & 0xffu, (w1 >> 8) & 0xffu);
  unsigned int y2 = luma_of((w1 >> 16) & 0xffu, w1 >> 24, w2 & 0xffu);
  unsigned int y3 = luma_of((w2 >> 8) & 0xffu, (w2 >> 16) & 0xffu, w2 >> 24);
  luma_words[g] = y0 | (y1 << 8) | (y2 << 16) | (y3 << 24);
}

__global__ void rgb_to_luma_tail(int start, int npixels, const uint8_t* __restrict__ rgb, uint8_t* __restrict__ luma) {
  int i = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= npixels) return;
  luma[i] = (uint8_t)luma_of(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

void rgbToLuma(int npixels, const Rgb8* pixels, uint8_t* luma) {
  if (npixels <= 0) return;
  static_assert(sizeof(Rgb8) == 3, "Rgb8 must be 3 packed bytes");
  size_t in_bytes = (size_t)npixels * 3;
  size_t out_bytes = (size_t)npixels;
  uint8_t *drgb = nullptr, *dluma = nullptr;
  cudaMalloc(&drgb, in_bytes);
  cudaMalloc(&dluma, out_bytes);
  cudaMemcpy(drgb, pixels, in_bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  int groups = npixels / 4;
  if (groups > 0) {
    int grid = (groups + block - 1) / block;
    rgb_to_luma_x4<<<grid, block>>>(groups, reinterpret_cast<const uint32_t*>(drgb),
                                    reinterpret_cast<uint32_t*>(dluma));
  }
  int start = groups * 4;
  if (start < npixels) rgb_to_luma_tail<<<1, 32>>>(start, npixels, drgb, dluma);
  cudaMemcpy(luma, dluma, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(drgb);
  cudaFree(dluma);
}

#include <cuda_runtime.h>
#include <cstdint>

// One thread per output word: it tests its 32 pixels and sets their bits.
__global__ void pack_word_per_thread(int n, int num_words, const uint8_t* pixels, int level, uint32_t* words) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= num_words) return;
  uint32_t bits = 0;
  int first = w * 32;
  for (int b = 0; b < 32 && first + b < n; ++b) {
    if (pixels[first + b] >= level) bits |= 1u << b;
  }
  words[w] = bits;
}

void pack_bitmap(int n, const uint8_t* pixels, int level, uint32_t* words) {
  int num_words = (n + 31) / 32;
  if (num_words <= 0) return;
  uint8_t* d_pix = nullptr;
  uint32_t* d_words = nullptr;
  cudaMalloc(&d_pix, (size_t)n);
  cudaMalloc(&d_words, (size_t)num_words * sizeof(uint32_t));
  cudaMemcpy(d_pix, pixels, (size_t)n, cudaMemcpyHostToDevice);
  pack_word_per_thread<<<(num_words + 255) / 256, 256>>>(n, num_words, d_pix, level, d_words);
  cudaMemcpy(words, d_words, (size_t)num_words * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_pix);
  cudaFree(d_words);
}

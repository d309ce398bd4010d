#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

// A 32-thread tile (cooperative_groups::tiled_partition<32>) per word: lane b
// tests pixel 32 * word + b, so the tile's loads are 32 consecutive bytes, and
// tile.ballot gathers the 32 answers into the word in one instruction.
__global__ void pack_word_per_tile(int n, int num_words, const uint8_t* __restrict__ pixels, int level,
                                   uint32_t* __restrict__ words) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (w >= num_words) return;  // the whole tile shares w, so it leaves together
  long long i = w * 32 + tile.thread_rank();
  bool set = i < n && pixels[i] >= level;
  uint32_t bits = tile.ballot(set);
  if (tile.thread_rank() == 0) words[w] = bits;
}

void pack_bitmap(int n, const uint8_t* pixels, int level, uint32_t* words) {
  int num_words = (n + 31) / 32;
  if (num_words <= 0) return;
  uint8_t* d_pix = nullptr;
  uint32_t* d_words = nullptr;
  cudaMalloc(&d_pix, (size_t)n);
  cudaMalloc(&d_words, (size_t)num_words * sizeof(uint32_t));
  cudaMemcpy(d_pix, pixels, (size_t)n, cudaMemcpyHostToDevice);
  long long threads = (long long)num_words * 32;
  pack_word_per_tile<<<(unsigned)((threads + 255) / 256), 256>>>(n, num_words, d_pix, level, d_words);
  cudaMemcpy(words, d_words, (size_t)num_words * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_pix);
  cudaFree(d_words);
}

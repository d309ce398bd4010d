#include <cuda_runtime.h>
#include <cstdint>

// One thread per descriptor, with the serial bit-clearing loop.
__global__ void hamming_loop(int n, const uint32_t* desc, const uint32_t* query, int* dist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int bits = 0;
  for (int w = 0; w < 8; ++w) {
    uint32_t diff = desc[(size_t)8 * i + w] ^ query[w];
    while (diff != 0) {
      diff &= diff - 1;
      ++bits;
    }
  }
  dist[i] = bits;
}

void descriptor_hamming(int n, const uint32_t* desc, const uint32_t* query, int* dist) {
  if (n <= 0) return;
  uint32_t *d_desc = nullptr, *d_query = nullptr;
  int* d_dist = nullptr;
  cudaMalloc(&d_desc, (size_t)n * 8 * sizeof(uint32_t));
  cudaMalloc(&d_query, 8 * sizeof(uint32_t));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMemcpy(d_desc, desc, (size_t)n * 8 * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemcpy(d_query, query, 8 * sizeof(uint32_t), cudaMemcpyHostToDevice);
  hamming_loop<<<(n + 255) / 256, 256>>>(n, d_desc, d_query, d_dist);
  cudaMemcpy(dist, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_desc);
  cudaFree(d_query);
  cudaFree(d_dist);
}

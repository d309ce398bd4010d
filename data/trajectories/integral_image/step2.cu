#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

#define SCAN_BLOCK 256

// Pass 1: one block per row. The row is scanned in chunks of 256 pixels with a
// Hillis-Steele inclusive scan in double-buffered shared memory; a carry holds
// the total of the previous chunks. Loads and stores are now coalesced.
__global__ void sat_rows_scan(const uint8_t* __restrict__ img, uint32_t* __restrict__ sat, int width) {
  __shared__ uint32_t buf[2][SCAN_BLOCK];
  __shared__ uint32_t chunk_total;
  const uint8_t* in = img + (size_t)blockIdx.x * width;
  uint32_t* out = sat + (size_t)blockIdx.x * width;
  int tid = threadIdx.x;
  uint32_t carry = 0;
  for (int base = 0; base < width; base += SCAN_BLOCK) {
    int x = base + tid;
    buf[0][tid] = x < width ? (uint32_t)in[x] : 0u;
    __syncthreads();
    int cur = 0;
    for (int off = 1; off < SCAN_BLOCK; off <<= 1) {
      uint32_t t = buf[cur][tid];
      if (tid >= off) t += buf[cur][tid - off];
      buf[cur ^ 1][tid] = t;
      cur ^= 1;
      __syncthreads();
    }
    uint32_t incl = buf[cur][tid];
    if (x < width) out[x] = carry + incl;
    if (tid == SCAN_BLOCK - 1) chunk_total = incl;
    __syncthreads();
    carry += chunk_total;
    __syncthreads();  // chunk_total and buf are reused by the next chunk
  }
}

// Pass 2: one thread per column accumulates the row sums downwards (coalesced).
__global__ void sat_cols_naive(uint32_t* sat, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  uint32_t run = 0;
  for (int y = 0; y < height; ++y) {
    run += sat[(size_t)y * width + x];
    sat[(size_t)y * width + x] = run;
  }
}

void integral_image_u32(const std::vector<uint8_t>& img, std::vector<uint32_t>& sat, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t n = (size_t)width * height;
  uint8_t* d_img = nullptr;
  uint32_t* d_sat = nullptr;
  cudaMalloc(&d_img, n);
  cudaMalloc(&d_sat, n * sizeof(uint32_t));
  cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice);
  sat_rows_scan<<<height, SCAN_BLOCK>>>(d_img, d_sat, width);
  sat_cols_naive<<<(width + 127) / 128, 128>>>(d_sat, width, height);
  cudaMemcpy(sat.data(), d_sat, n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_sat);
}

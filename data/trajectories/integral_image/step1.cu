#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// Pass 1: one thread per row runs the row prefix sum sequentially.
__global__ void sat_rows_naive(const uint8_t* img, uint32_t* sat, int width, int height) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  const uint8_t* in = img + (size_t)y * width;
  uint32_t* out = sat + (size_t)y * width;
  uint32_t run = 0;
  for (int x = 0; x < width; ++x) {
    run += in[x];
    out[x] = run;
  }
}

// Pass 2: one thread per column accumulates the row sums downwards.
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
  sat_rows_naive<<<(height + 127) / 128, 128>>>(d_img, d_sat, width, height);
  sat_cols_naive<<<(width + 127) / 128, 128>>>(d_sat, width, height);
  cudaMemcpy(sat.data(), d_sat, n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_sat);
}

#include <cuda_runtime.h>
#include <cstdint>

// One thread per pixel: minimum over the clipped 3x3 window.
__global__ void erode_naive(int width, int height, const uint8_t* src, uint8_t* dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int m = 255;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      m = min(m, (int)src[yy * width + xx]);
    }
  }
  dst[y * width + x] = (uint8_t)m;
}

void erode_3x3_u8(int width, int height, const uint8_t* src, uint8_t* dst) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  erode_naive<<<grid, block>>>(width, height, d_src, d_dst);
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

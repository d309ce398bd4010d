#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// One thread per pixel: maximum over the clipped 3x3 window.
__global__ void dilate_naive(const uint8_t* img, uint8_t* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int m = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      m = max(m, (int)img[yy * width + xx]);
    }
  }
  out[y * width + x] = (uint8_t)m;
}

void dilate_3x3(const std::vector<uint8_t>& img, std::vector<uint8_t>& out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, img.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  dilate_naive<<<grid, block>>>(d_in, d_out, width, height);
  cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

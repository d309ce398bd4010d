#include <cuda_runtime.h>
#include <cstdint>

// One thread per output pixel: 25 clamped loads from global memory.
__global__ void range_naive(int width, int height, const uint8_t* img, uint8_t* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int lo = 255, hi = 0;
  for (int dy = -2; dy <= 2; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -2; dx <= 2; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      int v = img[(size_t)yy * width + xx];
      lo = min(lo, v);
      hi = max(hi, v);
    }
  }
  out[(size_t)y * width + x] = (uint8_t)(hi - lo);
}

void local_range_5x5(int width, int height, const uint8_t* img, uint8_t* out) {
  if (width <= 0 || height <= 0) return;
  size_t pixels = (size_t)width * height;
  uint8_t *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, pixels);
  cudaMalloc(&d_out, pixels);
  cudaMemcpy(d_img, img, pixels, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  range_naive<<<grid, block>>>(width, height, d_img, d_out);
  cudaMemcpy(out, d_out, pixels, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}

#include <cuda_runtime.h>
#include <cstdint>

// One thread per pixel: gather the clamped 3x3 window into a local array and run
// the same insertion sort as the serial code.
__global__ void median3_naive(const uint8_t* src, uint8_t* dst, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  uint8_t win[9];
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      win[n++] = src[yy * width + xx];
    }
  }
  for (int i = 1; i < 9; ++i) {
    uint8_t v = win[i];
    int j = i - 1;
    while (j >= 0 && win[j] > v) {
      win[j + 1] = win[j];
      --j;
    }
    win[j + 1] = v;
  }
  dst[y * width + x] = win[4];
}

void median_3x3_u8(const uint8_t* src, uint8_t* dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  median3_naive<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

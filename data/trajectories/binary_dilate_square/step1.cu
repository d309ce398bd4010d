#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// One thread per output pixel scanning the full (2r+1) x (2r+1) window.
__global__ void dilate_direct(int w, int h, int r, const uint8_t* mask, uint8_t* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uint8_t v = 0;
  for (int dy = -r; dy <= r; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (int dx = -r; dx <= r; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= w) continue;
      if (mask[(size_t)yy * w + xx] != 0) v = 1;
    }
  }
  out[(size_t)y * w + x] = v;
}

void dilate_binary_box(int w, int h, int r, const uint8_t* mask, uint8_t* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h;
  uint8_t *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, mask, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  dilate_direct<<<grid, block>>>(w, h, r, d_in, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// A square window is the product of two intervals, so the dilation separates:
// a row pass marks pixels with a set pixel within r columns (tmp), and a
// column pass marks pixels with a marked tmp pixel within r rows. That is
// 2(2r+1) tests per pixel instead of (2r+1)^2.
__global__ void dilate_rows(int w, int h, int r, const uint8_t* mask, uint8_t* tmp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int lo = max(x - r, 0), hi = min(x + r, w - 1);
  uint8_t v = 0;
  for (int xx = lo; xx <= hi; ++xx)
    if (mask[(size_t)y * w + xx] != 0) v = 1;
  tmp[(size_t)y * w + x] = v;
}

__global__ void dilate_cols(int w, int h, int r, const uint8_t* tmp, uint8_t* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int lo = max(y - r, 0), hi = min(y + r, h - 1);
  uint8_t v = 0;
  for (int yy = lo; yy <= hi; ++yy)
    if (tmp[(size_t)yy * w + x] != 0) v = 1;
  out[(size_t)y * w + x] = v;
}

void dilate_binary_box(int w, int h, int r, const uint8_t* mask, uint8_t* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h;
  uint8_t *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, mask, bytes, cudaMemcpyHostToDevice);
  uint8_t* d_tmp;
  cudaMalloc(&d_tmp, bytes);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  dilate_rows<<<grid, block>>>(w, h, r, d_in, d_tmp);
  dilate_cols<<<grid, block>>>(w, h, r, d_tmp, d_out);
  cudaFree(d_tmp);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}

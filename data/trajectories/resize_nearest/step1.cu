#include <cuda_runtime.h>
#include <cstdint>

// One thread per destination pixel, two 64-bit divisions each.
__global__ void resize_nn_naive(const uint8_t* src, int sw, int sh, uint8_t* dst, int dw, int dh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  int sy = (int)((long long)y * sh / dh);
  int sx = (int)((long long)x * sw / dw);
  dst[(long long)y * dw + x] = src[(long long)sy * sw + sx];
}

void resize_nearest_u8(const uint8_t* src, int sw, int sh, uint8_t* dst, int dw, int dh) {
  if (sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0) return;
  size_t sbytes = (size_t)sw * sh, dbytes = (size_t)dw * dh;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, sbytes);
  cudaMalloc(&d_dst, dbytes);
  cudaMemcpy(d_src, src, sbytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((dw + 31) / 32, (dh + 7) / 8);
  resize_nn_naive<<<grid, block>>>(d_src, sw, sh, d_dst, dw, dh);
  cudaMemcpy(dst, d_dst, dbytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

#include <cuda_runtime.h>

// One thread per output pixel, reading its 2x2 input block.
__global__ void down2_naive(const float* src, int width, int ow, int oh, float* dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  const float* r0 = src + (long)(2 * y) * width + 2 * x;
  const float* r1 = r0 + width;
  dst[(long)y * ow + x] = (r0[0] + r0[1] + r1[0] + r1[1]) * 0.25f;
}

void downsample_2x_average(const float* src, int width, int height, float* dst) {
  int ow = width / 2, oh = height / 2;
  if (ow <= 0 || oh <= 0) return;
  size_t in_bytes = (size_t)width * height * sizeof(float);
  size_t out_bytes = (size_t)ow * oh * sizeof(float);
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, in_bytes);
  cudaMalloc(&d_dst, out_bytes);
  cudaMemcpy(d_src, src, in_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((ow + 31) / 32, (oh + 7) / 8);
  down2_naive<<<grid, block>>>(d_src, width, ow, oh, d_dst);
  cudaMemcpy(dst, d_dst, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

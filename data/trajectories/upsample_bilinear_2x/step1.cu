#include <cuda_runtime.h>
#include <vector>

// One thread per output pixel, evaluating the reference formula.
__global__ void up2_naive(const float* src, int width, int height, float* dst) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  int ow = 2 * width, oh = 2 * height;
  if (X >= ow || Y >= oh) return;
  float sy = (Y + 0.5f) * 0.5f - 0.5f;
  if (sy < 0.0f) sy = 0.0f;
  if (sy > height - 1) sy = (float)(height - 1);
  int y0 = (int)floorf(sy);
  int y1 = y0 + 1 < height ? y0 + 1 : height - 1;
  float fy = sy - y0;
  float sx = (X + 0.5f) * 0.5f - 0.5f;
  if (sx < 0.0f) sx = 0.0f;
  if (sx > width - 1) sx = (float)(width - 1);
  int x0 = (int)floorf(sx);
  int x1 = x0 + 1 < width ? x0 + 1 : width - 1;
  float fx = sx - x0;
  float top = (1.0f - fx) * src[y0 * width + x0] + fx * src[y0 * width + x1];
  float bot = (1.0f - fx) * src[y1 * width + x0] + fx * src[y1 * width + x1];
  dst[Y * ow + X] = (1.0f - fy) * top + fy * bot;
}

void upsample_bilinear_2x(const std::vector<float>& src, int width, int height, std::vector<float>& dst) {
  if (width <= 0 || height <= 0) return;
  size_t in_bytes = (size_t)width * height * sizeof(float);
  size_t out_bytes = 4 * in_bytes;
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, in_bytes);
  cudaMalloc(&d_dst, out_bytes);
  cudaMemcpy(d_src, src.data(), in_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((2 * width + 31) / 32, (2 * height + 7) / 8);
  up2_naive<<<grid, block>>>(d_src, width, height, d_dst);
  cudaMemcpy(dst.data(), d_dst, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

#include <cuda_runtime.h>

// One thread per pixel evaluating both differences.
__global__ void grad_naive(int width, int height, const float* f, float* gx, float* gy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int k = y * width + x;
  float dx, dy;
  if (width == 1) dx = 0.0f;
  else if (x == 0) dx = f[k + 1] - f[k];
  else if (x == width - 1) dx = f[k] - f[k - 1];
  else dx = (f[k + 1] - f[k - 1]) * 0.5f;
  if (height == 1) dy = 0.0f;
  else if (y == 0) dy = f[k + width] - f[k];
  else if (y == height - 1) dy = f[k] - f[k - width];
  else dy = (f[k + width] - f[k - width]) * 0.5f;
  gx[k] = dx;
  gy[k] = dy;
}

void central_gradient(int width, int height, const float* f, float* gx, float* gy) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_f = nullptr, *d_gx = nullptr, *d_gy = nullptr;
  cudaMalloc(&d_f, bytes);
  cudaMalloc(&d_gx, bytes);
  cudaMalloc(&d_gy, bytes);
  cudaMemcpy(d_f, f, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  grad_naive<<<grid, block>>>(width, height, d_f, d_gx, d_gy);
  cudaMemcpy(gx, d_gx, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(gy, d_gy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_f);
  cudaFree(d_gx);
  cudaFree(d_gy);
}

#include <cuda_runtime.h>
#include <vector>

// One thread per source pixel: reads are coalesced along the row, but the writes
// of a warp land in 32 different destination rows (stride = height).
__global__ void rot90_naive(const float* src, float* dst, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  dst[(size_t)x * height + (height - 1 - y)] = src[(size_t)y * width + x];
}

void rotate_cw90(const std::vector<float>& src, std::vector<float>& dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  rot90_naive<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

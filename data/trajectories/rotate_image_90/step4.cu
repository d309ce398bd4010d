#include <cuda_runtime.h>
#include <vector>

#define T 32
#define ROWS 8  // thread rows per block; each thread moves T / ROWS = 4 elements

// Padded tiled rotation with 32 x 8 threads per 32 x 32 tile: each thread loads
// and stores four elements, so there are four independent loads in flight per
// thread, a quarter of the threads (and of their index arithmetic) per tile, and
// more resident tiles per SM.
__global__ void rot90_tile_x4(const float* __restrict__ src, float* __restrict__ dst, int width, int height) {
  __shared__ float tile[T][T + 1];
  int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int sx = x0 + tx;
#pragma unroll
  for (int j = 0; j < T; j += ROWS) {
    int sy = y0 + ty + j;
    if (sx < width && sy < height) tile[ty + j][tx] = src[(size_t)sy * width + sx];
  }
  __syncthreads();
  int oy = y0 + T - 1 - tx;
#pragma unroll
  for (int j = 0; j < T; j += ROWS) {
    int ox = x0 + ty + j;
    if (ox < width && oy < height) dst[(size_t)ox * height + (height - 1 - oy)] = tile[T - 1 - tx][ty + j];
  }
}

void rotate_cw90(const std::vector<float>& src, std::vector<float>& dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(T, ROWS);
  dim3 grid((width + T - 1) / T, (height + T - 1) / T);
  rot90_tile_x4<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

#include <cuda_runtime.h>
#include <vector>

#define T 32

// Tiled rotation with a padded tile. In the write phase a warp reads one tile
// column (tile[31 - tx][ty]); with a 32-float row pitch all 32 reads fall in the
// same bank and are serialised, with a 33-float pitch they fall in 32 banks.
__global__ void rot90_tile_padded(const float* __restrict__ src, float* __restrict__ dst, int width, int height) {
  __shared__ float tile[T][T + 1];  // +1 column: column reads hit 32 different banks
  int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int sx = x0 + tx, sy = y0 + ty;
  if (sx < width && sy < height) tile[ty][tx] = src[(size_t)sy * width + sx];
  __syncthreads();
  // thread (tx, ty) writes source pixel (x0 + ty, y0 + 31 - tx)
  int ox = x0 + ty, oy = y0 + T - 1 - tx;
  if (ox < width && oy < height) dst[(size_t)ox * height + (height - 1 - oy)] = tile[T - 1 - tx][ty];
}

void rotate_cw90(const std::vector<float>& src, std::vector<float>& dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(T, T);
  dim3 grid((width + T - 1) / T, (height + T - 1) / T);
  rot90_tile_padded<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

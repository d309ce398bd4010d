#include <cuda_runtime.h>
#include <vector>

#define T 32

// A 32 x 32 block stages a 32 x 32 source tile in shared memory (coalesced row
// reads), then writes the rotated tile: destination row x0 + ty receives source
// column x0 + ty read bottom-up, so consecutive threads write consecutive
// destination addresses.
__global__ void rot90_tile(const float* __restrict__ src, float* __restrict__ dst, int width, int height) {
  __shared__ float tile[T][T];
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
  rot90_tile<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}

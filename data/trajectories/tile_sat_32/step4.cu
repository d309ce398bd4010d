#include <cuda_runtime.h>

#define T 32

// One warp per tile, each lane holding a whole row or column in 32 registers.
// The warp loads the tile into shared memory row by row (each row one
// coalesced 128-byte read); lane l then copies row l into registers, scans it
// there and writes it back; after a __syncwarp it copies column l, scans it in
// registers and stores the results straight to global memory, row by row
// (coalesced again). Each running sum is a register chain instead of a shared
// load and store per element, all 32 lanes work in both passes (before, one
// warp of 32 scanned while 31 waited), and a 32-thread block lets many tiles
// be resident per SM.
__global__ void sat_tile_warp(int width, int height, const float* __restrict__ img, float* __restrict__ out) {
  __shared__ float tile[T][T + 1];
  int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
  int lane = threadIdx.x;
  int gx = x0 + lane;
#pragma unroll 8
  for (int k = 0; k < T; ++k) {
    int gy = y0 + k;
    tile[k][lane] = (gx < width && gy < height) ? img[(size_t)gy * width + gx] : 0.0f;
  }
  __syncwarp();
  float v[T];
#pragma unroll
  for (int k = 0; k < T; ++k) v[k] = tile[lane][k];
#pragma unroll
  for (int k = 1; k < T; ++k) v[k] += v[k - 1];
#pragma unroll
  for (int k = 0; k < T; ++k) tile[lane][k] = v[k];
  __syncwarp();
#pragma unroll
  for (int k = 0; k < T; ++k) v[k] = tile[k][lane];
#pragma unroll
  for (int k = 1; k < T; ++k) v[k] += v[k - 1];
#pragma unroll 8
  for (int k = 0; k < T; ++k) {
    int gy = y0 + k;
    if (gx < width && gy < height) out[(size_t)gy * width + gx] = v[k];
  }
}

void tile_sat32(int width, int height, const float* img, float* out) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  int tiles_x = (width + 31) / 32, tiles_y = (height + 31) / 32;
  sat_tile_warp<<<dim3(tiles_x, tiles_y), T>>>(width, height, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}

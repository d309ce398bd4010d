#include <cuda_runtime.h>
#include <cstddef>

#define BX 32
#define BY 8
#define R 3

// The block stages its (8+6) x (32+6) neighbourhood (clamped at the image
// edges, which reproduces the replicated border) in shared memory; the 49
// taps of every thread then read the tile instead of global memory.
__global__ void mean7_tiled(int w, int h, const float* __restrict__ img, float* __restrict__ out) {
  __shared__ float tile[BY + 2 * R][BX + 2 * R];
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < (BY + 2 * R) * (BX + 2 * R); e += BX * BY) {
    int ly = e / (BX + 2 * R), lx = e % (BX + 2 * R);
    int gx = min(max(x0 - R + lx, 0), w - 1);
    int gy = min(max(y0 - R + ly, 0), h - 1);
    tile[ly][lx] = img[(size_t)gy * w + gx];
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int dy = 0; dy <= 2 * R; ++dy)
    for (int dx = 0; dx <= 2 * R; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(size_t)y * w + x] = s / 49.0f;
}

void box_mean7(int w, int h, const float* img, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  mean7_tiled<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}

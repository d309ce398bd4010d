#include <cuda_runtime.h>
#include <cstddef>

#define BX 32
#define BY 8
#define R 3

// The 7x7 box is separable: inside the block, first form horizontal 7-sums
// for every row of the tile (hs, (8+6) x 32), then each output is the sum of 7
// vertically adjacent hs values. 14 additions per output instead of 49, plus
// 6 extra rows of horizontal sums per block.
__global__ void mean7_separable(int w, int h, const float* __restrict__ img,
                                float* __restrict__ out) {
  __shared__ float tile[BY + 2 * R][BX + 2 * R];
  __shared__ float hs[BY + 2 * R][BX];
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < (BY + 2 * R) * (BX + 2 * R); e += BX * BY) {
    int ly = e / (BX + 2 * R), lx = e % (BX + 2 * R);
    int gx = min(max(x0 - R + lx, 0), w - 1);
    int gy = min(max(y0 - R + ly, 0), h - 1);
    tile[ly][lx] = img[(size_t)gy * w + gx];
  }
  __syncthreads();
  for (int ly = threadIdx.y; ly < BY + 2 * R; ly += BY) {
    float s = 0.0f;
    for (int dx = 0; dx <= 2 * R; ++dx) s += tile[ly][threadIdx.x + dx];
    hs[ly][threadIdx.x] = s;
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int dy = 0; dy <= 2 * R; ++dy) s += hs[threadIdx.y + dy][threadIdx.x];
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
  mean7_separable<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}

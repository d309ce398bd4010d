#include <cuda_runtime.h>
#include <cstddef>

#define BX 32
#define BY 8
#define R 5

// Rows never interact, and a block row is exactly one warp (32 threads). If
// each warp loads its own row segment (42 values: lanes 0..31, then lanes
// 0..9 for the last 10), every shared value is produced and consumed by the
// same warp, so the block-wide __syncthreads is replaced by __syncwarp: the
// 8 warps no longer wait for each other. All lanes reach the __syncwarp
// (threads outside the image return only after it).
__global__ void fir11_warprows(int w, int h, const float* __restrict__ img,
                               const float* __restrict__ taps, float* __restrict__ out) {
  __shared__ float tile[BY][BX + 2 * R];
  int lane = threadIdx.x, wy = threadIdx.y;
  int x0 = blockIdx.x * BX;
  int y = blockIdx.y * BY + wy;
  const float* row = img + (size_t)min(y, h - 1) * w;
  for (int lx = lane; lx < BX + 2 * R; lx += BX) tile[wy][lx] = row[min(max(x0 - R + lx, 0), w - 1)];
  __syncwarp();
  int x = x0 + lane;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 2 * R + 1; ++k) acc += taps[k] * tile[wy][lane + k];
  out[(size_t)y * w + x] = acc;
}

void fir_rows11(int w, int h, const float* img, const float* taps, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_taps, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_taps, 11 * sizeof(float));
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_taps, taps, 11 * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  fir11_warprows<<<grid, block>>>(w, h, d_img, d_taps, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_taps);
  cudaFree(d_out);
}

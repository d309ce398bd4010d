#include <cuda_runtime.h>
#include <cstddef>

#define BX 32
#define BY 8
#define R 5

// The block stages its 8 rows x (32 + 10) clamped pixels in shared memory with
// a flat cooperative loop, synchronises, and every thread reads its 11 taps
// from the tile: each pixel is fetched from global memory once per block.
__global__ void fir11_tiled(int w, int h, const float* __restrict__ img,
                            const float* __restrict__ taps, float* __restrict__ out) {
  __shared__ float tile[BY][BX + 2 * R];
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < BY * (BX + 2 * R); e += BX * BY) {
    int ly = e / (BX + 2 * R), lx = e % (BX + 2 * R);
    int gx = min(max(x0 - R + lx, 0), w - 1);
    int gy = min(y0 + ly, h - 1);
    tile[ly][lx] = img[(size_t)gy * w + gx];
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 2 * R + 1; ++k) acc += taps[k] * tile[threadIdx.y][threadIdx.x + k];
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
  fir11_tiled<<<grid, block>>>(w, h, d_img, d_taps, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_taps);
  cudaFree(d_out);
}
